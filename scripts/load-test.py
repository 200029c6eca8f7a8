#!/usr/bin/env python3
"""Flood test of `chronicle serve` on loopback (docs/reliability.md, "Load test").

Two attacking clients (processes, from 127.0.0.2 and 127.0.0.3, several connections each) send
the worst requests known for DURATION seconds: a fragment-spread bomb, 2,400 aliased `verifyLog`
(refused by the complexity limit), 50 aliased `verifyLog` (the most one request may hold), and a
10 MB log to `verifyLog`. Meanwhile a third client (127.0.0.1) asks a cheap query every 50 ms;
the same cheap query is measured for BASELINE seconds before the flood, in the same run, as
the baseline. The server's resident memory (VmRSS) is sampled every 100 ms.

Passes (exit 0) when the cheap query's p99 during the flood is at most --p99-ms (100) and the
server's peak RSS is at most --rss-cap-mib (see docs/reliability.md for how the cap follows
from the budgets). Stops by itself; prints one JSON summary line last.

    cargo build --release -p chronicle-api
    python3 scripts/load-test.py [--binary target/release/chronicle] [--duration 30] \
        [--server-flag=--anonymous-rate-limit=1000000 ...]
"""

import argparse
import http.client
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "games")
CHEAP = '{ games(first: 5) { edges { node { id status players { name score { total } } } } } }'


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def bomb(levels):
    doc = "query { ...F%d }\nfragment F0 on Query { __typename }\n" % levels
    for i in range(1, levels + 1):
        doc += "fragment F%d on Query { ...F%d ...F%d }\n" % (i, i - 1, i - 1)
    return doc


def aliased(n):
    fields = " ".join("v%d: verifyLog(log: $l) { status }" % i for i in range(n))
    return "query($l: JSON!) { %s }" % fields


def worst_requests():
    game = fixture("complete_4p.json")
    huge = dict(game, meta=dict(game.get("meta", {}), id="x" * 10_000_000))
    bodies = {
        "bomb": {"query": bomb(28)},
        "aliased-2400": {"query": aliased(2400), "variables": {"l": game}},
        "aliased-50": {"query": aliased(50), "variables": {"l": game}},
        "log-10MB": {"query": "query($l: JSON!) { verifyLog(log: $l) { status } }", "variables": {"l": huge}},
    }
    return {k: json.dumps(v).encode() for k, v in bodies.items()}


def post(conn, body):
    conn.request("POST", "/graphql", body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = resp.read()
    code = None
    try:
        errors = json.loads(data).get("errors") or []
        if errors:
            code = errors[0].get("extensions", {}).get("code")
    except ValueError:
        code = "NOT_JSON"
    return resp.status, code


def attacker(source, port, threads, stop_at, queue):
    """One attacking client: `threads` connections cycling through the worst requests."""
    bodies = worst_requests()
    kinds = list(bodies)
    counts = {}
    lock = threading.Lock()

    def flood(offset):
        conn = None
        i = offset
        while time.time() < stop_at:
            kind = kinds[i % len(kinds)]
            i += 1
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
                status, code = post(conn, bodies[kind])
                key = "%s %d %s" % (kind, status, code or "ok")
            except (OSError, http.client.HTTPException) as e:
                key = "%s connection-error %s" % (kind, type(e).__name__)
                conn = None
            with lock:
                counts[key] = counts.get(key, 0) + 1

    workers = [threading.Thread(target=flood, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    queue.put(counts)


def measure(port, seconds, every=0.05):
    """Latencies (ms) of the cheap query, one at a time, for `seconds`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.1", 0))
    body = json.dumps({"query": CHEAP}).encode()
    out, failures = [], 0
    end = time.time() + seconds
    while time.time() < end:
        start = time.perf_counter()
        try:
            status, code = post(conn, body)
            if status != 200 or code is not None:
                failures += 1
        except (OSError, http.client.HTTPException):
            failures += 1
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.1", 0))
        out.append((time.perf_counter() - start) * 1000)
        time.sleep(every)
    return out, failures


def quantile(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap.add_argument("--binary", default=os.path.join(target, "release", "chronicle"))
    ap.add_argument("--duration", type=float, default=30)
    ap.add_argument("--baseline", type=float, default=10)
    ap.add_argument("--threads", type=int, default=4, help="connections per attacking client")
    ap.add_argument("--p99-ms", type=float, default=100)
    ap.add_argument("--rss-cap-mib", type=float, default=700)
    ap.add_argument("--server-flag", action="append", default=[], help="extra flag for chronicle serve")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="chronicle-load-")
    db = "sqlite://" + os.path.join(work, "load.db")
    subprocess.run([args.binary, "import", "--database-url", db, FIXTURES], check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--workers", "2", "--database-url", db, *args.server_flag],
        stdout=subprocess.PIPE, stderr=open(os.path.join(work, "server.log"), "w"), env=dict(os.environ, RUST_LOG="warn"),
    )
    try:
        line = server.stdout.readline().decode()
        port = int(line.strip().rsplit(":", 1)[1])
        idle_rss = rss_mib(server.pid)
        baseline, base_failures = measure(port, args.baseline)

        stop_at = time.time() + args.duration
        queue = multiprocessing.Queue()
        attackers = [
            multiprocessing.Process(target=attacker, args=(src, port, args.threads, stop_at, queue))
            for src in ("127.0.0.2", "127.0.0.3")
        ]
        for a in attackers:
            a.start()
        peak = [idle_rss]

        def sample():
            while time.time() < stop_at + 2:
                try:
                    peak[0] = max(peak[0], rss_mib(server.pid))
                except OSError:
                    return
                time.sleep(0.1)

        sampler = threading.Thread(target=sample)
        sampler.start()
        time.sleep(1)  # let the flood start
        flood, flood_failures = measure(port, max(1.0, stop_at - time.time()))
        attack_counts = {}
        for _ in attackers:
            for k, v in queue.get().items():
                attack_counts[k] = attack_counts.get(k, 0) + v
        for a in attackers:
            a.join()
        sampler.join()
        try:
            health = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            health.request("GET", "/healthz")
            healthy = health.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            healthy = False
    finally:
        server.kill()
        server.wait(timeout=30)

    summary = {
        "duration_s": args.duration,
        "server_flags": args.server_flag,
        "cheap_baseline": {"n": len(baseline), "p50_ms": round(quantile(baseline, 0.5), 2),
                           "p99_ms": round(quantile(baseline, 0.99), 2), "failures": base_failures},
        "cheap_under_flood": {"n": len(flood), "p50_ms": round(quantile(flood, 0.5), 2),
                              "p99_ms": round(quantile(flood, 0.99), 2), "max_ms": round(max(flood), 2),
                              "failures": flood_failures},
        "p99_ratio_to_baseline": round(quantile(flood, 0.99) / max(quantile(baseline, 0.99), 1e-9), 2),
        "rss_mib": {"idle": round(idle_rss, 1), "peak": round(peak[0], 1), "cap": args.rss_cap_mib},
        "attack_responses": dict(sorted(attack_counts.items())),
        "healthz_after": healthy,
    }
    ok = quantile(flood, 0.99) <= args.p99_ms and peak[0] <= args.rss_cap_mib and healthy and flood_failures == 0
    summary["pass"] = ok
    shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(summary))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
