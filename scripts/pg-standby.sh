#!/usr/bin/env bash
# Makes a PostgreSQL hot standby of the local cluster (127.0.0.1:5432) listening on
# 127.0.0.1:5433, by streaming replication, for the replica tests (docs/scaling.md). Idempotent:
# a running standby is left as it is. Needs root (it writes the clusters' configuration).
set -euo pipefail
version="$(ls /etc/postgresql | head -1)"
primary_conf="/etc/postgresql/$version/main"
port="${CHRONICLE_STANDBY_PORT:-5433}"

if pg_isready -h 127.0.0.1 -p "$port" -q \
  && [ "$(psql -h 127.0.0.1 -p "$port" -U postgres -Atc 'SELECT pg_is_in_recovery()' 2>/dev/null)" = t ]; then
  exit 0
fi

# The primary accepts replication connections from this machine without a password, as it does
# every other connection here (trust).
if ! grep -q '^host[[:space:]]\+replication' "$primary_conf/pg_hba.conf"; then
  echo "host replication all 127.0.0.1/32 trust" >> "$primary_conf/pg_hba.conf"
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload
fi

# A cluster named `standby`: its configuration from pg_createcluster, its data a base backup
# of the primary with the settings that make it follow it (-R: standby.signal, primary_conninfo).
if pg_lsclusters -h | awk '{print $2}' | grep -qx standby; then
  pg_ctlcluster --skip-systemctl-redirect "$version" standby stop 2>/dev/null || true
  pg_dropcluster "$version" standby
fi
pg_createcluster "$version" standby --port "$port" -- --auth=trust >/dev/null
data="/var/lib/postgresql/$version/standby"
rm -rf "$data"
install -d -o postgres -g postgres -m 700 "$data"
su postgres -c "pg_basebackup -h 127.0.0.1 -p 5432 -U postgres -D '$data' -R -X stream -c fast"
pg_ctlcluster --skip-systemctl-redirect "$version" standby start
for _ in $(seq 30); do pg_isready -h 127.0.0.1 -p "$port" -q && break; sleep 1; done
pg_isready -h 127.0.0.1 -p "$port"
