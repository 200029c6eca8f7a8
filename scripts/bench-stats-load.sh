#!/usr/bin/env bash
# Start-up benchmark (docs/scaling.md): N simulated four-player Caverna games imported into a
# SQLite store (uploader `bench`), then `chronicle serve` started on it twice. The first start
# counts the games into the store's tallies: "1st start" is the time to its first statistics
# answer. On the restart: how long `/healthz` and the first statistics answer took, the answer
# again, and the server's resident memory. Then the same statistic over the uploader `bench`
# (every game, but a filter that selects games one by one, so the server reads every game's
# rows, as it did for every statistic before the tallies were kept in the store): its time,
# the memory after it, and a check that all three answers are the same. Before that, on the
# restarted server, the latency of statistics queries (median and 99th percentile of
# QUERIES requests each, default 200, one at a time): a whole-bucket filter (the tallies);
# one player's games — the players are renamed so that each sat in about 200 games
# (`club player K`), and each request asks for another player, so every answer reads its
# games from the store; and a `playedFrom` inside a month — the games are dated over three
# years, and each request cuts another month, whose games it reads from the store. Ratings
# (docs/scaling.md, "Models in the store"): on the first start, the time until the stored
# rating model answers `ratings` ("rated", from the start) and the memory then; on the restart, the latency of the
# ratings table (`ratings(first: 50)`) and of a player's page (`/players/club player K`,
# another player each time), and the memory after them.
#
#   scripts/bench-stats-load.sh [GAMES]          (default 20000)
#
# BIN names the `chronicle` binary (default: a release build of this tree); BASELINE_BIN a
# second binary measured in the same run on its own copy of the store (e.g. the previous
# build), so that the figures compare on one machine at one time. CARGO_TARGET_DIR is honoured.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES="${1:-20000}"
QUERIES="${QUERIES:-200}"
TARGET="${CARGO_TARGET_DIR:-target}"
if [ -z "${BIN:-}" ]; then
  BIN="$TARGET/release/chronicle"
  cargo build --release -q -p chronicle-api
fi
WORK="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

# Seat s of game n is `club player (4n + s) mod P`: about 200 games per player. Game n is
# played on day n mod 28 + 1 of month n mod 36 from January 2024: three years, a month holding
# about GAMES/36 games.
PLAYERS=$(( GAMES * 4 / 200 > 4 ? GAMES * 4 / 200 : 4 ))
"$BIN" simulate --games "$GAMES" --players 4 --seed 3 --out - \
  | awk -v p="$PLAYERS" '{
      for (s = 1; s <= 4; s++) gsub("\"name\":\"random " s "\"", "\"name\":\"club player " (4 * NR + s) % p "\"")
      m = NR % 36; at = sprintf("%04d-%02d-%02dT19:00:00Z", 2024 + int(m / 12), m % 12 + 1, NR % 28 + 1)
      sub("\"meta\":\\{", "\"meta\":{\"played_at\":\"" at "\","); print }' \
  > "$WORK/games.ndjson"
echo "corpus: chronicle simulate --games $GAMES --players 4 --seed 3, players renamed to $PLAYERS club players, dated over 36 months ($(du -h "$WORK/games.ndjson" | cut -f1))"
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-12s %10s %12s %10s %10s %10s %12s %11s %10s %16s %16s %16s %16s %16s %10s %12s %10s\n" "binary" "import" "1st start" "rated" "RSS (MB)" "/healthz" "first stats" "again (ms)" "RSS (MB)" "tallied p50/p99" "player p50/p99" "month p50/p99" "ratings p50/p99" "page p50/p99" "RSS (MB)" "from rows" "RSS (MB)"

# Seconds since $1 (a `date +%s.%N` reading).
since() { echo "$(date +%s.%N) - $1" | bc; }

# Starts a server on $1 (a SQLite file) with binary $2; sets PORT, PID and STARTED.
start_server() {
  PORT=$((20000 + RANDOM % 20000))
  STARTED=$(date +%s.%N)
  "$2" serve --port "$PORT" --anonymous-rate-limit 1000000 --database-url "sqlite://$1" > /dev/null 2>&1 &
  PID=$!
  until curl -sf "http://127.0.0.1:$PORT/healthz" > /dev/null; do sleep 0.01; done
}

# POSTs GraphQL query $1 to the running server, writing the answer to $2.
ask() {
  curl -sf -H 'content-type: application/json' -d "$1" "http://127.0.0.1:$PORT/graphql" > "$2"
}

rss() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$PID/status"; }

# Median and 99th percentile (ms) of QUERIES requests made by `query_of I` (I = 0, 1, …), one at
# a time; each answer must hold no error.
latency() {
  local i
  for ((i = 0; i < QUERIES; i++)); do
    curl -sf -o "$WORK/answer.json" -w '%{time_total}\n' -H 'content-type: application/json' \
      -d "$("$1" "$i")" "http://127.0.0.1:$PORT/graphql"
    if grep -q '"errors"' "$WORK/answer.json"; then echo "an error: $(cat "$WORK/answer.json")" >&2; exit 1; fi
  done | sort -n | awk '{ t[NR] = $1 * 1000 } END { printf "%.1f / %.1f", t[int((NR + 1) / 2)], t[int(NR * 0.99 + 0.5)] }'
}
# Median and 99th percentile (ms) of QUERIES GETs of the page `page_of I`, one at a time; each
# must answer 200.
page_latency() {
  local i
  for ((i = 0; i < QUERIES; i++)); do
    curl -sf -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$PORT$("$1" "$i")"
  done | sort -n | awk '{ t[NR] = $1 * 1000 } END { printf "%.1f / %.1f", t[int((NR + 1) / 2)], t[int(NR * 0.99 + 0.5)] }'
}
ratings_query() { echo '{"query":"{ caverna { ratings(first: 50) { key mu games } } }"}'; }
player_page() { echo "/players/club%20player%20$(( $1 % PLAYERS ))?game=caverna"; }
tallied_query() { echo '{"query":"{ caverna { seatStats(filter: {playerCount: 4}) { bySeat { seat } } scoreDistribution { playerGames } } }"}'; }
# A bound inside a month: from day (i mod 20) + 5 of month (i mod 36).
month_query() {
  local m=$(( $1 % 36 )) d=$(( $1 % 20 + 5 ))
  local at; at=$(printf '%04d-%02d-%02d' $(( 2024 + m / 12 )) $(( m % 12 + 1 )) "$d")
  echo "{\"query\":\"{ caverna { seatStats(filter: {playedFrom: \\\"$at\\\"}) { bySeat { seat } } scoreDistribution(filter: {playedFrom: \\\"$at\\\"}) { playerGames } } }\"}"
}
player_query() { echo "{\"query\":\"{ caverna { seatStats(filter: {player: \\\"club player $(( $1 % PLAYERS ))\\\"}) { bySeat { seat } } scoreDistribution(filter: {player: \\\"club player $(( $1 % PLAYERS ))\\\"}) { playerGames } } }\"}"; }

measure() {
  local name="$1" bin="$2" db="$WORK/$1.db"
  local start import healthz counted rated rated_rss first again rss ratings page ratings_rss rows rows_rss
  local q='{"query":"{ caverna { scoreDistribution { playerGames } } }"}'
  local r='{"query":"{ caverna { scoreDistribution(filter: {uploader: \"bench\"}) { playerGames } } }"}'
  start=$(date +%s.%N)
  "$bin" import --uploader bench --database-url "sqlite://$db" "$WORK/games.ndjson" > /dev/null
  import=$(since "$start")
  # First start after the import: the server counts the games into the store's tallies.
  start_server "$db" "$bin"
  ask "$q" "$WORK/$name-counted.json"
  counted=$(since "$STARTED")
  # The rating model is computed in the background once the games are counted.
  until ask "$(ratings_query)" "$WORK/ratings.json" && ! grep -q '"errors"' "$WORK/ratings.json"; do sleep 0.2; done
  rated=$(since "$STARTED")
  rated_rss=$(rss)
  kill "$PID"; wait "$PID" 2>/dev/null || true
  # A restart: the tallies are read from the store.
  start_server "$db" "$bin"
  healthz=$(since "$STARTED")
  ask "$q" "$WORK/$name.json"
  first=$(since "$STARTED")
  start=$(date +%s.%N)
  ask "$q" /dev/null
  again=$(echo "($(since "$start")) * 1000" | bc)
  rss=$(rss)
  tallied=$(latency tallied_query)
  player=$(latency player_query)
  month=$(latency month_query)
  ratings=$(latency ratings_query)
  page=$(page_latency player_page)
  ratings_rss=$(rss)
  start=$(date +%s.%N)
  ask "$r" "$WORK/$name-rows.json"
  rows=$(since "$start")
  rows_rss=$(rss)
  kill "$PID"; wait "$PID" 2>/dev/null || true
  printf "%-12s %9.2fs %11.2fs %9.2fs %10s %9.2fs %11.2fs %11.1f %10s %16s %16s %16s %16s %16s %10s %11.2fs %10s\n" \
    "$name" "$import" "$counted" "$rated" "$rated_rss" "$healthz" "$first" "$again" "$rss" "$tallied" "$player" "$month" "$ratings" "$page" "$ratings_rss" "$rows" "$rows_rss"
  for other in "$name-counted" "$name-rows"; do
    if ! cmp -s "$WORK/$name.json" "$WORK/$other.json"; then
      echo "$name: the answers differ ($name.json, $other.json):"
      cat "$WORK/$name.json" "$WORK/$other.json"; exit 1
    fi
  done
}

if [ -n "${BASELINE_BIN:-}" ]; then
  measure baseline "$BASELINE_BIN"
fi
measure this "$BIN"
if [ -n "${BASELINE_BIN:-}" ] && ! cmp -s "$WORK/baseline.json" "$WORK/this.json"; then
  echo "the two binaries' first answers differ:"; cat "$WORK/baseline.json" "$WORK/this.json"; exit 1
fi
