#!/usr/bin/env bash
# Import benchmark: N four-player games into PostgreSQL and into SQLite, compared in the same run
# with replay alone (`chronicle replay --summary`) on the same corpus. See docs/performance.md.
#
#   scripts/bench-import.sh [GAMES] [RUNS]        (defaults: 10000 games, 3 runs each)
#
# Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test) names the
# server; a scratch database is created there for each run and dropped afterwards.
# CARGO_TARGET_DIR is honoured. BIN names a `chronicle` binary to time instead of building the
# current tree (e.g. a copy of an older build, to compare in the same session); BENCH_CORPUS
# names a directory to keep the corpus in (reused when it exists) instead of a scratch one.
#
# Corpus: `chronicle simulate --games N --players 4 --seed 1 --out DIR` when the binary has that
# command; otherwise the golden 4-player game (tests/fixtures/games/complete_4p.json) repeated N
# times with distinct `meta.id`s, so that every copy is a distinct game for the dedupe key. The
# script says which corpus it used.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES="${1:-10000}"
RUNS="${2:-3}"
PG_BASE="${BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}"
TARGET="${CARGO_TARGET_DIR:-target}"

if [ -z "${BIN:-}" ]; then
  BIN="$TARGET/release/chronicle"
  cargo build --release -q -p chronicle-api
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
CORPUS="${BENCH_CORPUS:-$WORK/corpus}"
mkdir -p "$CORPUS"

if [ -n "$(ls -A "$CORPUS")" ]; then
  KIND="kept in $CORPUS (BENCH_CORPUS)"
elif "$BIN" simulate --help >/dev/null 2>&1; then
  "$BIN" simulate --games "$GAMES" --players 4 --seed 1 --out "$CORPUS" >/dev/null
  KIND="simulated: chronicle simulate --games $GAMES --players 4 --seed 1"
else
  python3 - "$GAMES" "$CORPUS/games.ndjson" <<'EOF'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
log = json.load(open("tests/fixtures/games/complete_4p.json"))
with open(out, "w") as f:
    for i in range(n):
        log.setdefault("meta", {})["id"] = f"bench-{i}"
        f.write(json.dumps(log, separators=(",", ":")) + "\n")
EOF
  KIND="fixtures repeated: tests/fixtures/games/complete_4p.json x $GAMES with distinct meta.id (simulate not available)"
fi

echo "binary: $BIN"
echo "corpus: $KIND"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "corpus size: $(du -sh "$CORPUS" | cut -f1), $("$BIN" replay --summary "$CORPUS")"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf "%-36s %10s %16s %10s\n" "" "wall" "" "chronicle"

# "wall-seconds cpu-seconds" of one command (cpu: user + system time of the chronicle process
# itself; PostgreSQL's server time is not in it)
seconds() {
  local t
  t="$(mktemp)"
  /usr/bin/time -f "%e %U %S" -o "$t" "$@" >/dev/null
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$t"
  rm -f "$t"
}

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

report() { # name, then "wall cpu" per run on stdin
  local runs wall cpu
  runs="$(cat)"
  wall="$(echo "$runs" | cut -d' ' -f1 | median)"
  cpu="$(echo "$runs" | cut -d' ' -f2 | median)"
  printf "%-36s %8.2f s %8.0f games/s %8.2f s CPU   (wall per run: %s)\n" "$1" "$wall" \
    "$(awk -v n="$GAMES" -v t="$wall" 'BEGIN { print n / t }')" "$cpu" "$(echo "$runs" | cut -d' ' -f1 | tr '\n' ' ')"
}

pg_admin() { psql "$PG_BASE" -q -v ON_ERROR_STOP=1 -c "$1" >/dev/null; }
pg_url() { echo "${PG_BASE%/*}/$1"; }

for _ in $(seq "$RUNS"); do seconds "$BIN" replay --summary "$CORPUS"; done | report "replay --summary (baseline)"

for _ in $(seq "$RUNS"); do
  rm -f "$WORK"/bench.db*
  seconds "$BIN" import --json --database-url "sqlite://$WORK/bench.db" "$CORPUS"
done | report "import into SQLite (empty)"
seconds "$BIN" import --json --database-url "sqlite://$WORK/bench.db" "$CORPUS" | report "re-import into SQLite (duplicates)"
echo "SQLite file: $(du -ch "$WORK"/bench.db* | tail -1 | cut -f1)"

if pg_admin "SELECT 1" 2>/dev/null; then
  for i in $(seq "$RUNS"); do
    DB="chronicle_bench_$$_$i"
    pg_admin "CREATE DATABASE $DB"
    seconds "$BIN" import --json --database-url "$(pg_url "$DB")" "$CORPUS"
    if [ "$i" = "$RUNS" ]; then
      seconds "$BIN" import --json --database-url "$(pg_url "$DB")" "$CORPUS" > "$WORK/pg-dup"
      psql "$(pg_url "$DB")" -Atc "SELECT pg_size_pretty(pg_database_size(current_database()))" > "$WORK/pg-size"
    fi
    pg_admin "DROP DATABASE $DB WITH (FORCE)"
  done | report "import into PostgreSQL (empty)"
  report "re-import into PostgreSQL (dups)" < "$WORK/pg-dup"
  echo "PostgreSQL database: $(cat "$WORK/pg-size")"
else
  echo "PostgreSQL at $PG_BASE is unreachable: skipped"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
