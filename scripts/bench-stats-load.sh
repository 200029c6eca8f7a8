#!/usr/bin/env bash
# Start-up benchmark (docs/scaling.md): N simulated four-player Caverna games imported into a
# SQLite store (uploader `bench`), then `chronicle serve` started on it; reports how long
# `/healthz` and the first statistics answer took after the start, and the server's resident
# memory after it. Then the same statistic over the uploader `bench` (every game, but a filter
# that selects games one by one, so the server reads every game's rows as it did for every
# statistic before the tallies were kept in the store): its time, the memory after it, and a
# check that both answers are the same.
#
#   scripts/bench-stats-load.sh [GAMES]          (default 20000)
#
# BIN names the `chronicle` binary (default: a release build of this tree); BASELINE_BIN a
# second binary measured in the same run on its own copy of the store (e.g. the previous
# build), so that the figures compare on one machine at one time. CARGO_TARGET_DIR is honoured.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES="${1:-20000}"
TARGET="${CARGO_TARGET_DIR:-target}"
if [ -z "${BIN:-}" ]; then
  BIN="$TARGET/release/chronicle"
  cargo build --release -q -p chronicle-api
fi
WORK="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

"$BIN" simulate --games "$GAMES" --players 4 --seed 3 --out - > "$WORK/games.ndjson"
echo "corpus: chronicle simulate --games $GAMES --players 4 --seed 3 ($(du -h "$WORK/games.ndjson" | cut -f1))"
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-12s %10s %10s %12s %11s %10s %12s %10s\n" "binary" "import" "/healthz" "first stats" "again (ms)" "RSS (MB)" "from rows" "RSS (MB)"

# Seconds since $1 (a `date +%s.%N` reading).
since() { echo "$(date +%s.%N) - $1" | bc; }

measure() {
  local name="$1" bin="$2" db="$WORK/$1.db"
  local start import port pid healthz first again rss rows rows_rss
  start=$(date +%s.%N)
  "$bin" import --uploader bench --database-url "sqlite://$db" "$WORK/games.ndjson" > /dev/null
  import=$(since "$start")
  port=$((20000 + RANDOM % 20000))
  start=$(date +%s.%N)
  "$bin" serve --port "$port" --anonymous-rate-limit 1000000 --database-url "sqlite://$db" > /dev/null 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/healthz" > /dev/null; do sleep 0.01; done
  healthz=$(since "$start")
  local q='{"query":"{ caverna { scoreDistribution { playerGames } } }"}'
  curl -sf -H 'content-type: application/json' -d "$q" "http://127.0.0.1:$port/graphql" > "$WORK/$name.json"
  first=$(since "$start")
  start=$(date +%s.%N)
  curl -sf -H 'content-type: application/json' -d "$q" "http://127.0.0.1:$port/graphql" > /dev/null
  again=$(echo "($(since "$start")) * 1000" | bc)
  rss=$(awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$pid/status")
  local r='{"query":"{ caverna { scoreDistribution(filter: {uploader: \"bench\"}) { playerGames } } }"}'
  start=$(date +%s.%N)
  curl -sf -H 'content-type: application/json' -d "$r" "http://127.0.0.1:$port/graphql" > "$WORK/$name-rows.json"
  rows=$(since "$start")
  rows_rss=$(awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  printf "%-12s %9.2fs %9.2fs %11.2fs %11.1f %10s %11.2fs %10s\n" \
    "$name" "$import" "$healthz" "$first" "$again" "$rss" "$rows" "$rows_rss"
  if ! cmp -s "$WORK/$name.json" "$WORK/$name-rows.json"; then
    echo "$name: the answer from the tallies and the one from every game's rows differ:"
    cat "$WORK/$name.json" "$WORK/$name-rows.json"; exit 1
  fi
}

if [ -n "${BASELINE_BIN:-}" ]; then
  measure baseline "$BASELINE_BIN"
fi
measure this "$BIN"
if [ -n "${BASELINE_BIN:-}" ] && ! cmp -s "$WORK/baseline.json" "$WORK/this.json"; then
  echo "the two binaries' first answers differ:"; cat "$WORK/baseline.json" "$WORK/this.json"; exit 1
fi
