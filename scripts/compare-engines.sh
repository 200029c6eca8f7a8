#!/usr/bin/env bash
# Compares every answer of the engines at two revisions, byte for byte, on one corpus: the
# parse-only results, verdicts, final states, states after 0, 5 and 40 entries, ledgers and
# Above and Below trust reports (scripts/compare-engines/main.rs). Used to show that a change
# made for speed changed no output (docs/performance.md).
#
#   scripts/compare-engines.sh BASE_REV [GAMES]     (default GAMES: 50 per engine and player count)
#
# Corpus: the JSON logs under tests/fixtures and engine/*/tests/fixtures, GAMES simulated games
# per engine and player count (written by the current tree's build), and edited copies of the
# fixtures and of every 25th simulated game (scripts/compare-engines/edit_logs.py). Exit code 1 when the outputs differ,
# after the first 40 lines of the difference and a count of the differing answers by kind
# (COMPARE_DIFF=FILE keeps the whole difference; KEEP_OUTPUTS=DIR keeps both outputs as
# DIR/old.txt and DIR/new.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE="${1:?usage: scripts/compare-engines.sh BASE_REV [GAMES]}"
GAMES="${2:-50}"
HEAD_DIR="$(pwd)"
WORK="$(mktemp -d)"
trap 'git worktree remove --force "$WORK/base-tree" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
git worktree add --detach -q "$WORK/base-tree" "$BASE"

build() { # name, tree: a throwaway crate using the tree's engines; prints the binary's path
  local dir="$WORK/$1"
  mkdir -p "$dir/src"
  cp scripts/compare-engines/main.rs "$dir/src/main.rs"
  cp Cargo.lock "$dir/Cargo.lock"
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "compare-engines"
version = "0.1.0"
edition = "2021"
[dependencies]
chronicle-game = { path = "$2/engine/core" }
chronicle-caverna = { path = "$2/engine/caverna" }
chronicle-village = { path = "$2/engine/village" }
chronicle-above-and-below = { path = "$2/engine/above-and-below" }
serde_json = { version = "1", features = ["preserve_order"] }
[workspace]
TOML
  local target="${CARGO_TARGET_DIR:-$WORK}/compare-engines-$1"
  cargo build -q --release --manifest-path "$dir/Cargo.toml" --target-dir "$target" >&2
  echo "$target/release/compare-engines"
}

NEW="$(build head "$HEAD_DIR")"
OLD="$(build base "$WORK/base-tree")"
CORPUS="$WORK/corpus"
mkdir -p "$CORPUS/fixtures"
find tests/fixtures engine/*/tests/fixtures -name '*.json' ! -name '*.expect.json' -print0 2>/dev/null \
  | while IFS= read -r -d '' f; do cp "$f" "$CORPUS/fixtures/$(echo "$f" | tr / _)"; done
"$NEW" simulate "$GAMES" > "$CORPUS/simulated.ndjson"
mkdir -p "$CORPUS/sampled"
awk -v dir="$CORPUS/sampled" 'NR % 25 == 1 { print > (dir "/simulated-" NR ".json") }' "$CORPUS/simulated.ndjson"
python3 scripts/compare-engines/edit_logs.py "$CORPUS" "$CORPUS"/fixtures/*.json "$CORPUS"/sampled/*.json
FILES=("$CORPUS"/fixtures/*.json "$CORPUS"/*.ndjson)
"$OLD" answers "${FILES[@]}" > "$WORK/old.txt"
"$NEW" answers "${FILES[@]}" > "$WORK/new.txt"
if [ -n "${KEEP_OUTPUTS:-}" ]; then
  mkdir -p "$KEEP_OUTPUTS" && cp "$WORK/old.txt" "$WORK/new.txt" "$KEEP_OUTPUTS/"
fi
if cmp -s "$WORK/old.txt" "$WORK/new.txt"; then
  echo "identical: $(grep -c '^== ' "$WORK/new.txt") logs in ${#FILES[@]} files, $BASE against the working tree"
else
  diff "$WORK/old.txt" "$WORK/new.txt" > "$WORK/diff.txt" || true
  head -n 40 "$WORK/diff.txt"
  # Every differing answer line, counted by its kind (verdict, state, ledger, …).
  echo "differing answers (kind: count), of $(grep -c '^== ' "$WORK/new.txt") logs:"
  grep '^> ' "$WORK/diff.txt" | awk '{ print $2 }' | sort | uniq -c
  if [ -n "${COMPARE_DIFF:-}" ]; then cp "$WORK/diff.txt" "$COMPARE_DIFF"; fi
  echo "DIFFERENT: $BASE against the working tree" >&2
  exit 1
fi
