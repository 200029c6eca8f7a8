#!/usr/bin/env bash
# Makes api/tests/fixtures/schema-<commit>/: databases written by an older `chronicle` (its
# schema and its data) and what that build's API answered about them, for the migration test
# (api/tests/it/migration.rs): the test loads each dump, lets today's build migrate it in place
# and asks today's API the same question.
#
# Usage: scripts/make-schema-fixture.sh OLD_CHRONICLE_BINARY COMMIT
# Needs: sqlite3, psql/pg_dump/createdb against postgres://postgres@127.0.0.1:5432, python3.
set -euo pipefail
bin=$(realpath "$1"); commit=$2
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/api/tests/fixtures/schema-$commit"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/logs"

# The logs: the golden logs (complete, invalid, and their valid twins), simulated games for the
# statistics, a log of another format and bytes that are not JSON.
cp "$root"/tests/fixtures/games/*.json "$work/logs/"
rm "$work"/logs/*.expect.json
"$bin" simulate --games 10 --players 3 --seed 7 --bot mixed --out "$work/sim3" >/dev/null
"$bin" simulate --games 6 --players 4 --seed 8 --bot mixed --out "$work/sim4" >/dev/null
cp "$work"/sim3/*.json "$work"/sim4/*.json "$work/logs/" 2>/dev/null || true
echo '{"format": "village-log/1", "setup": {}, "entries": []}' > "$work/logs/zz_village.json"
printf 'not json at all' > "$work/logs/zz_not_json.json"

query='{"query": "{ games(first: 100) { edges { node { id status round entriesApplied playerCount furnishingSet engineVersion format error { entry player code message } players { seat name winner rank claimedScore score { farmAnimalsAndDogs missingFarmAnimalTypes grain vegetables rubies dwarfs unusedSpaces tilesPasturesMines bonusParlorsStoragesChambers goldAndBegging total } } claimedMismatches { player claimed computed } meta { id tournament playedAt } logSha256 } } } tournament(id: \"1\") { name standings { rank player games wins totalScore } verification { games allComplete allLegal scoreMismatches { gameId player claimed computed } unclaimedGames } } furnishingStats { tile playerGames built winRateBuilt ciLow ciHigh meanScoreBuilt } weaponStats { strategy playerGames winRate ciLow ciHigh meanScore } seatStats { bySeat { playerCount seat winRate { rate n } } } scoreDistribution(bucketWidth: 10) { playerGames mean min max histogram { from count } } actionSpaceStats { placements rounds { round placements } } }"}'

fill() { # URL: imports the logs and makes a tournament of the complete golden games
  local url=$1
  "$bin" import --database-url "$url" "$work/logs" >/dev/null || true
  local token; token=$("$bin" token create --name fixture --database-url "$url" | head -1)
  local port=$((20000 + RANDOM % 20000))
  "$bin" serve --database-url "$url" --port "$port" >/dev/null 2>&1 & local pid=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
  local org; org=$(curl -s "http://127.0.0.1:$port/graphql" -H 'content-type: application/json' -H "authorization: Bearer $token" \
    -d '{"query": "mutation { createTournament(name: \"Fixture Cup\") { organizerToken } }"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["createTournament"]["organizerToken"])')
  curl -s "http://127.0.0.1:$port/graphql" -H 'content-type: application/json' -H "authorization: Bearer $org" \
    -d '{"query": "mutation { addGamesToTournament(tournamentId: \"1\", gameIds: [\"1\", \"2\", \"3\", \"4\"]) { id } }"}' >/dev/null
  curl -s "http://127.0.0.1:$port/graphql" -H 'content-type: application/json' -d "$query" | python3 -m json.tool --sort-keys > "$work/answer.json"
  kill -INT "$pid"; wait "$pid" || true
}

fill "sqlite://$work/old.db"
cp "$work/answer.json" "$out/answer.json"
sqlite3 "$work/old.db" .dump | gzip -9n > "$out/sqlite.sql.gz"

db="fixture_$$"
createdb -h 127.0.0.1 -U postgres "$db"
fill "postgres://postgres@127.0.0.1:5432/$db"
cmp "$work/answer.json" "$out/answer.json" || { echo "PostgreSQL answered differently from SQLite" >&2; exit 1; }
pg_dump -h 127.0.0.1 -U postgres --inserts --no-owner --no-privileges --no-comments "$db" | gzip -9n > "$out/postgres.sql.gz"
dropdb -h 127.0.0.1 -U postgres "$db"
python3 -c 'import json,sys; print(json.loads(sys.argv[1])["query"])' "$query" > "$out/query.graphql"
ls -la "$out"
