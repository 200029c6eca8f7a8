#!/usr/bin/env python3
"""Flood test of `chronicle serve` on loopback (docs/reliability.md, "Load test").

The store holds the golden games and two hostile legal games: an Above and Below game whose
catalogue declares 250,000 extra cards (about 7.7 MB) and a Caverna game with a 9 MB `meta.id`.

First, the cost of each attack alone: every attack request is sent once, one at a time, and the
server's CPU (user + system, /proc) and resident memory are read before and after; each must
stay under --cpu-ms (1,000) and --request-mib (256).

Then the flood: two attacking clients (processes, from 127.0.0.2 and 127.0.0.3, several
connections each) send the attacks in turn for DURATION seconds: a fragment-spread bomb, 2,400
aliased `verifyLog` (refused by the complexity limit), 50 aliased `verifyLog` (the most one
request may hold), an 8 MB log to `verifyLog`; and the attacks on stored games: 150 and 40
aliases of `replay` on the large Above and Below game, 20 aliases of its `log` and `ledger`,
its game page and a board fragment, its log sent to `legalEntries` and `entrySteps`, a 1 MB log
to `/record/next`, `/metrics` after requests
with made-up operation names and methods, and downloads whose client reads 193 bytes and
stalls. Meanwhile a third client (127.0.0.1) asks a cheap query every 50 ms; the same cheap
query is measured for BASELINE seconds before the flood, in the same run, as the baseline. The
server's resident memory (VmRSS) is sampled every 100 ms.

Passes (exit 0) when each attack alone stays within its CPU and memory bounds, the cheap
query's p99 during the flood is at most --p99-ms (100), no cheap query fails, the server's peak
RSS is at most --rss-cap-mib (see docs/reliability.md for how the cap follows from the budgets)
and a download still completes after the flood. Stops by itself; prints one JSON summary line
last.

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


def hostile_games(work):
    """Two legal hostile logs, written to `work`: an Above and Below game declaring 250,000
    extra catalogue cards, and a Caverna game with a 9 MB `meta.id`."""
    with open(os.path.join(ROOT, "engine", "above-and-below", "tests", "fixtures", "golden-2p.json")) as f:
        aab = json.load(f)
    extra = [{"id": "x%06d" % i, "kind": "basic", "cost": 2} for i in range(250_000)]
    aab["setup"]["catalogue"]["cards"].extend(extra)
    game = fixture("complete_4p.json")
    caverna = dict(game, meta=dict(game.get("meta", {}), id="y" * 9_000_000))
    paths = []
    for name, log in (("aab-250k-cards.json", aab), ("caverna-9MB.json", caverna)):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            json.dump(log, f, separators=(",", ":"))
        paths.append(path)
    return paths


def aliases(n, field):
    return "query($id: ID!) { %s }" % " ".join("a%d: %s" % (i, field) for i in range(n))


def village_travel(n):
    """A Village log whose travel map is a chain of `n` cities, far over the engine's bound
    (`MAX_TRAVEL_CITIES`): refused with `log_too_large` at setup."""
    cities = {"c%d" % i: {"reward": "coin"} for i in range(n)}
    paths = [{"between": ["village", "c0"]}, {"between": ["village", "c1"]}]
    paths += [{"between": ["c%d" % (i - 1), "c%d" % i]} for i in range(2, n)]
    setup = {"players": [{"name": "A", "color": "blue"}, {"name": "B", "color": "red"}],
             "components": {"travel": {"cities": cities, "paths": paths}}, "seed": 1}
    return {"format": "village-log/1", "setup": setup, "entries": []}


def worst_requests(stored, hostile_log):
    """The attacks: (method, path, body or None) by name. `stored` is the hostile stored game,
    `hostile_log` the path of its log (also sent as it is)."""
    game = fixture("complete_4p.json")
    with open(hostile_log) as f:
        aab = json.load(f)
    # Sent in a request body, the log must fit the 8 MiB body limit: 90,000 cards fewer.
    del aab["setup"]["catalogue"]["cards"][-90_000:]
    huge = dict(game, meta=dict(game.get("meta", {}), id="x" * 8_000_000))
    big = dict(game, meta=dict(game.get("meta", {}), id="z" * 1_000_000))
    bodies = {
        "village-travel-7MB": {"query": "query($l: JSON!) { verifyLog(log: $l) { status } }",
                               "variables": {"l": village_travel(120_000)}},
        "bomb": {"query": bomb(28)},
        "aliased-2400": {"query": aliased(2400), "variables": {"l": game}},
        "aliased-50": {"query": aliased(50), "variables": {"l": game}},
        "log-8MB": {"query": "query($l: JSON!) { verifyLog(log: $l) { status } }", "variables": {"l": huge}},
        "replay-150-aliases": {"query": aliases(150, "replay(gameId: $id) { round }"), "variables": {"id": stored}},
        "replay-40-aliases": {"query": aliases(40, "replay(gameId: $id) { round state }"), "variables": {"id": stored}},
        "log-20-aliases": {"query": aliases(20, "game(id: $id) { log }"), "variables": {"id": stored}},
        "ledger-20-aliases": {"query": aliases(20, "game(id: $id) { ledger trust }"),
                              "variables": {"id": stored}},
        "metrics-names": {"query": "query Q%d { gameKinds { id } }", "operationName": "Q%d"},
        "legal-aab-7MB": {"query": "query($l: JSON!) { legalEntries(log: $l, limit: 1000) }", "variables": {"l": aab}},
        "steps-aab-7MB": {"query": "query($l: JSON!) { entrySteps(log: $l, draft: {player: 0}) }",
                           "variables": {"l": aab}},
    }
    out = {k: ("POST", "/graphql", json.dumps(v).encode()) for k, v in bodies.items()}
    out["page"] = ("GET", "/games/%s" % stored, None)
    out["board"] = ("GET", "/games/%s/board?at=5" % stored, None)
    out["record-next-1MB"] = ("POST", "/record/next", json.dumps({"log": big}).encode())
    out["metrics"] = ("GET", "/metrics", None)
    out["odd-method"] = ("M%d", "/graphql", None)
    out["download-stall"] = ("STALL", "/games/export?table=player-games", None)
    return out


def send(conn, method, path, body, n=0):
    """One request: (status, error code or None). `%d` in a method or body takes `n`."""
    if method == "STALL":
        # A download read for 193 bytes, then left: the connection is dropped by the caller.
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read(193)
        return resp.status, "stalled"
    if "%d" in method:
        method = method % n
    if body is not None and b"%d" in body:
        body = body.replace(b"%d", str(n).encode())
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    code = None
    try:
        parsed = json.loads(data) if data[:1] in (b"{", b"[") else {}
        errors = parsed.get("errors") or [] if isinstance(parsed, dict) else []
        if errors:
            code = errors[0].get("extensions", {}).get("code")
        elif isinstance(parsed, dict) and "code" in parsed:
            code = parsed["code"]
    except ValueError:
        code = "NOT_JSON"
    return resp.status, code


def post(conn, body):
    return send(conn, "POST", "/graphql", body)


def attacker(source, port, threads, stop_at, queue, stored, hostile_log):
    """One attacking client: `threads` connections cycling through the worst requests."""
    bodies = worst_requests(stored, hostile_log)
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
                method, path, body = bodies[kind]
                status, code = send(conn, method, path, body, i)
                if method == "STALL" or method.startswith("M"):
                    conn.close()
                    conn = None
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


def cpu_ms(pid):
    """The process's user + system CPU so far, in ms."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def costs_alone(port, pid, bodies):
    """Each attack sent once, alone: the server's CPU (ms) and its RSS growth (MiB) for it,
    the worst of two tries (the first fills the caches)."""
    out = {}
    for kind, (method, path, body) in bodies.items():
        worst = {"cpu_ms": 0.0, "rss_growth_mib": 0.0}
        for attempt in range(2):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=("127.0.0.4", 0))
            rss0, cpu0 = rss_mib(pid), cpu_ms(pid)
            try:
                status, code = send(conn, method, path, body, attempt)
            except (OSError, http.client.HTTPException) as e:
                status, code = 0, type(e).__name__
            conn.close()
            time.sleep(0.3)  # let the server finish what the request started
            worst["cpu_ms"] = max(worst["cpu_ms"], round(cpu_ms(pid) - cpu0, 1))
            worst["rss_growth_mib"] = max(worst["rss_growth_mib"], round(rss_mib(pid) - rss0, 1))
            worst["answer"] = "%d %s" % (status, code or "ok")
        out[kind] = worst
    return out


def download_completes(port):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.5", 0))
        conn.request("GET", "/games/export?table=games")
        resp = conn.getresponse()
        resp.read()
        return resp.status == 200
    except (OSError, http.client.HTTPException):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap.add_argument("--binary", default=os.path.join(target, "release", "chronicle"))
    ap.add_argument("--duration", type=float, default=30)
    ap.add_argument("--baseline", type=float, default=10)
    ap.add_argument("--threads", type=int, default=4, help="connections per attacking client")
    ap.add_argument("--p99-ms", type=float, default=100)
    ap.add_argument("--rss-cap-mib", type=float, default=700)
    ap.add_argument("--cpu-ms", type=float, default=1000, help="most server CPU one attack alone may cost")
    ap.add_argument("--request-mib", type=float, default=256, help="most RSS growth one attack alone may cause")
    ap.add_argument("--server-flag", action="append", default=[], help="extra flag for chronicle serve")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="chronicle-load-")
    db = "sqlite://" + os.path.join(work, "load.db")
    subprocess.run([args.binary, "import", "--database-url", db, FIXTURES], check=True, stdout=subprocess.DEVNULL)
    hostile = hostile_games(work)
    subprocess.run([args.binary, "import", "--database-url", db, *hostile], check=True, stdout=subprocess.DEVNULL)
    listed = subprocess.run([args.binary, "export", "--database-url", db, "--table", "games", "--out", "-"],
                            check=True, capture_output=True, text=True).stdout.splitlines()
    # The Above and Below game is the one with the most entries of its game: take the last one.
    stored = [line.split(",")[0] for line in listed[1:] if ",above-and-below," in line][-1]
    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--workers", "2", "--database-url", db, *args.server_flag],
        stdout=subprocess.PIPE, stderr=open(os.path.join(work, "server.log"), "w"), env=dict(os.environ, RUST_LOG="warn"),
    )
    try:
        line = server.stdout.readline().decode()
        port = int(line.strip().rsplit(":", 1)[1])
        idle_rss = rss_mib(server.pid)
        alone = costs_alone(port, server.pid, worst_requests(stored, hostile[0]))
        idle_rss = rss_mib(server.pid)
        baseline, base_failures = measure(port, args.baseline)

        stop_at = time.time() + args.duration
        queue = multiprocessing.Queue()
        attackers = [
            multiprocessing.Process(target=attacker, args=(src, port, args.threads, stop_at, queue, stored, hostile[0]))
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
        time.sleep(2)  # stalled downloads are cut after the server's idle time (--download-idle)
        downloads_after = download_completes(port)
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
        "each_attack_alone": alone,
        "most_cpu_ms_alone": max(v["cpu_ms"] for v in alone.values()),
        "most_rss_growth_mib_alone": max(v["rss_growth_mib"] for v in alone.values()),
        "healthz_after": healthy,
        "download_after": downloads_after,
    }
    alone_ok = all(v["cpu_ms"] <= args.cpu_ms and v["rss_growth_mib"] <= args.request_mib for v in alone.values())
    ok = (quantile(flood, 0.99) <= args.p99_ms and peak[0] <= args.rss_cap_mib and healthy and flood_failures == 0
          and alone_ok and downloads_after)
    summary["pass"] = ok
    shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(summary))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
