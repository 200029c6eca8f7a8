#!/usr/bin/env python3
"""What a download costs the server (docs/reliability.md, "Downloads"): N simulated Caverna games
are imported into a scratch SQLite store, `chronicle serve` is started on it, and each table is
downloaded once as CSV by a plain client on loopback; the server's CPU (user + system, from
/proc) and the wall time of each download are printed as one JSON line. Run it for two builds in
the same session to compare them (`--binary`); the games are the same for both (fixed seed).

    cargo build --release -p chronicle-api
    python3 scripts/bench-download.py [--binary PATH] [--games 10000] [--corpus DIR]
"""

import argparse
import http.client
import json
import os
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLES = ["games", "player-games", "score-rows", "placements"]


def cpu_ms(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap.add_argument("--binary", default=os.path.join(target, "release", "chronicle"))
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--corpus", help="a folder of simulated logs to import (made with the binary when absent)")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="chronicle-download-")
    corpus = args.corpus or os.path.join(work, "sims")
    if not args.corpus:
        subprocess.run([args.binary, "simulate", "--games", str(args.games), "--players", "4", "--seed", "7",
                        "--out", corpus], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = "sqlite://" + os.path.join(work, "bench.db")
    subprocess.run([args.binary, "import", "--database-url", db, corpus], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    token = subprocess.run([args.binary, "token", "create", "--name", "bench", "--database-url", db],
                           check=True, capture_output=True, text=True).stdout.strip()
    server = subprocess.Popen([args.binary, "serve", "--port", "0", "--workers", "2", "--database-url", db],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, RUST_LOG="warn"))
    results = {}
    try:
        port = int(server.stdout.readline().decode().strip().rsplit(":", 1)[1])
        for table in TABLES:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            cpu0, start = cpu_ms(server.pid), time.perf_counter()
            # A token: more games than an anonymous download may hold.
            conn.request("GET", "/games/export?table=%s&format=csv" % table,
                         headers={"Authorization": "Bearer " + token})
            resp = conn.getresponse()
            body = resp.read()
            wall = time.perf_counter() - start
            time.sleep(0.2)
            results[table] = {"status": resp.status, "rows": max(0, body.count(b"\n") - 1),
                              "bytes": len(body), "wall_s": round(wall, 3),
                              "server_cpu_s": round((cpu_ms(server.pid) - cpu0) / 1000, 3)}
    finally:
        server.kill()
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"binary": args.binary, "games": args.games, "tables": results}))


if __name__ == "__main__":
    main()
