#!/usr/bin/env bash
# API load benchmark (docs/performance.md, "API"): `chronicle serve` on SQLite, loaded with wrk
# from the same machine.
#
#   scripts/bench-api.sh [SECONDS] [CONNECTIONS]      (defaults: 10 s, 32 connections)
#
# 1. baseline: GET /healthz (the HTTP stack alone);
# 2. cached reads: POST /graphql `game(id)` over 500 stored games, cycling ids (every game is
#    in the server's cache after the first pass);
# 3. submitGame under concurrency: 4,000 distinct simulated 2-player logs, then the same logs
#    again (duplicates), compared with verifyLog (replay without storing) on the same logs.
# Needs wrk (Debian package `wrk`). CARGO_TARGET_DIR is honoured; RUST_LOG defaults to `info`
# (one log line per request, as the server runs by default).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_RUN="${1:-10}"
CONNS="${2:-32}"
TARGET="${CARGO_TARGET_DIR:-target}"
BIN="$TARGET/release/chronicle"
command -v wrk >/dev/null || { echo "bench-api: needs wrk (apt-get install wrk)" >&2; exit 2; }

cargo build --release -q -p chronicle-api
WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

DB="sqlite://$WORK/chronicle.db"
"$BIN" simulate --games 4000 --players 2 --seed 11 --out - > "$WORK/logs.ndjson"
TOKEN="$("$BIN" token create --name bench --database-url "$DB")"
"$BIN" serve --port 0 --database-url "$DB" --rate-limit 100000000 > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
for _ in $(seq 100); do grep -q listening "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
URL="$(sed -n 's/^chronicle: listening on //p' "$WORK/serve.out" | head -1)"
echo "server: $URL (pid $SERVER_PID), log level ${RUST_LOG:-info}"

# 500 games stored up front (the cached-read corpus), with submitGames.
head -n 500 "$WORK/logs.ndjson" | python3 -c '
import json, sys
logs = [json.loads(l) for l in sys.stdin]
print(json.dumps({"query": "mutation($l: [JSON!]!) { submitGames(logs: $l) { game { id } } }", "variables": {"l": logs}}))
' > "$WORK/seed.json"
curl -sf "$URL/graphql" -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" -d @"$WORK/seed.json" > /dev/null

cat > "$WORK/read.lua" <<'LUA'
local ids, i = 500, 0
request = function()
  i = i % ids + 1
  local body = '{"query":"query($id: ID!) { game(id: $id) { id status round players { name winner score { total } } } }","variables":{"id":"' .. i .. '"}}'
  return wrk.format("POST", "/graphql", { ["Content-Type"] = "application/json" }, body)
end
LUA

# One submitGame request body per line of the corpus, cycling.
python3 - "$WORK/logs.ndjson" "$WORK/submit.bodies" "$WORK/verify.bodies" <<'PY'
import json, sys
src, submit, verify = sys.argv[1:4]
with open(src) as f, open(submit, "w") as s, open(verify, "w") as v:
    for line in f:
        log = json.loads(line)
        s.write(json.dumps({"query": "mutation($l: JSON!) { submitGame(log: $l) { duplicate game { id status } } }", "variables": {"l": log}}) + "\n")
        v.write(json.dumps({"query": "query($l: JSON!) { verifyLog(log: $l) { status } }", "variables": {"l": log}}) + "\n")
PY
cat > "$WORK/bodies.lua" <<LUA
local bodies = {}
local token = "$TOKEN"
init = function(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
end
local i = 0
request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/graphql", { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, bodies[i])
end
LUA

run() { # name, wrk args...
  local name="$1"; shift
  echo "== $name"
  wrk --latency -t2 -c"$CONNS" -d"${SECONDS_PER_RUN}s" "$@" | grep -E "Requests/sec|Latency|^ +(50|90|99)%|requests in|Non-2xx"
}

run "baseline: GET /healthz" "$URL/healthz"
run "warm-up: game(id)" -s "$WORK/read.lua" "$URL/graphql" > /dev/null
run "cached reads: game(id)" -s "$WORK/read.lua" "$URL/graphql"
run "verifyLog (replay, nothing stored)" -s "$WORK/bodies.lua" "$URL/graphql" -- "$WORK/verify.bodies"
run "submitGame (new games first, then duplicates)" -s "$WORK/bodies.lua" "$URL/graphql" -- "$WORK/submit.bodies"
COUNT="$(curl -sf "$URL/graphql" -H 'Content-Type: application/json' -d '{"query":"{ games(first: 1) { edges { cursor } } }"}' > /dev/null && \
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from games').fetchone()[0])" "$WORK/chronicle.db")"
echo "games stored after the run: $COUNT (500 seeded + new submissions; the corpus has 4,000)"
