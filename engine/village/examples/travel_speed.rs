//! Replay time of logs declaring large travel maps (`docs/rules/village.md` D.6, A.8), against a same-run
//! baseline.
//!
//! ```sh
//! cargo run --release -p chronicle-village --example travel_speed -- [cities ...]
//! ```
//!
//! For each count `n` (default 10000 25000 50000 100000) two logs are timed, the median of five
//! replays each (one when a replay takes over a second):
//!
//! * **bare**: inline components holding only a travel map, the village joined to `c0` and `c1`
//!   and the cities `c1 … c{n-1}` in a chain (`n` cities, `n` paths), with no entries — the
//!   shape of a log sent only to make the engine read its map;
//! * **game**: a simulated 2-player game whose inline components are the synthetic table with
//!   the same chain hung from its city `abbey` (`n` more cities), replayed to its end.
//!
//! The baseline is the same simulated game with the synthetic table inline, unchanged; each
//! log's own JSON floor (read and discarded, `serde::de::IgnoredAny`) is timed beside it. Each
//! line gives the verdict (the status, and the error code when refused), so that a map refused
//! by a size bound shows as such.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// `n` cities: `c0` and `c1` next to the village, `c1 … c{n-1}` in a chain.
fn chain(n: usize, hub: &str) -> (Value, Vec<Value>) {
    let cities: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("c{i}"), json!({ "reward": "coin" }))).collect();
    let mut paths = vec![json!({ "between": [hub, "c0"] })];
    paths.extend(
        (1..n).map(
            |i| json!({ "between": [if i == 1 { hub.to_owned() } else { format!("c{}", i - 1) }, format!("c{i}")] }),
        ),
    );
    (Value::Object(cities), paths)
}

fn bare(n: usize) -> Vec<u8> {
    let (cities, paths) = chain(n, "village");
    let setup = json!({
        "players": [{ "name": "A", "color": "blue" }, { "name": "B", "color": "red" }],
        "components": { "travel": { "cities": cities, "paths": paths } },
        "seed": 1,
    });
    json!({ "format": "village-log/1", "setup": setup, "entries": [] }).to_string().into_bytes()
}

/// The simulated game with the synthetic table inline, the chain (if any) hung from `abbey`.
fn game(n: usize) -> Vec<u8> {
    let mut log = chronicle_village::bots::simulate(7, 2).expect("a simulated game");
    let mut table: Value = serde_json::from_str(chronicle_village::components::SYNTHETIC_JSON).expect("the table");
    if n > 0 {
        let (cities, paths) = chain(n, "abbey");
        let travel = &mut table["travel"];
        travel["cities"].as_object_mut().expect("cities").extend(cities.as_object().expect("cities").clone());
        // `c1` hangs from `c0`, not from the hub: the chain is one line from `abbey`.
        let mut paths = paths;
        paths[1] = json!({ "between": ["c0", "c1"] });
        travel["paths"].as_array_mut().expect("paths").extend(paths);
    }
    log["setup"]["components"] = table;
    log.to_string().into_bytes()
}

fn verdict(log: &[u8]) -> String {
    let r = chronicle_village::replay(log);
    match r.error {
        Some(e) => format!("{:?} {}", r.status, e.code.as_str()),
        None => format!("{:?}", r.status),
    }
}

/// What a pass does with a log's bytes.
type Pass = fn(&[u8]);

fn replay(log: &[u8]) {
    std::hint::black_box(chronicle_village::replay(std::hint::black_box(log)));
}

/// The JSON floor: the log read and discarded, which no replay can beat.
fn floor(log: &[u8]) {
    std::hint::black_box(serde_json::from_slice::<serde::de::IgnoredAny>(std::hint::black_box(log)).is_ok());
}

fn once(log: &[u8], pass: Pass) -> Duration {
    let t = Instant::now();
    pass(log);
    t.elapsed()
}

/// The median of five passes; one pass when it takes over a second (the quadratic maps).
fn median(log: &[u8], pass: Pass) -> Duration {
    let first = once(log, pass);
    if first > Duration::from_secs(1) {
        return first;
    }
    let mut d: Vec<Duration> = std::iter::once(first).chain((0..4).map(|_| once(log, pass))).collect();
    d.sort();
    d[2]
}

fn main() {
    let counts: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let counts = if counts.is_empty() { vec![10_000, 25_000, 50_000, 100_000] } else { counts };
    let base_log = game(0);
    let base = median(&base_log, replay);
    println!(
        "baseline: simulated 2-player game, synthetic table inline: {:.3} ms ({})",
        base.as_secs_f64() * 1e3,
        verdict(&base_log)
    );
    for n in counts {
        for (kind, log) in [("bare", bare(n)), ("game", game(n))] {
            let d = median(&log, replay);
            let f = median(&log, floor);
            println!(
                "{n:>7} cities {kind}: {:>7} bytes {:>10.3} ms {:>9.1}x baseline {:>7.1}x its JSON floor ({:.3} ms)  {}",
                log.len(),
                d.as_secs_f64() * 1e3,
                d.as_secs_f64() / base.as_secs_f64(),
                d.as_secs_f64() / f.as_secs_f64(),
                f.as_secs_f64() * 1e3,
                verdict(&log)
            );
        }
    }
}
