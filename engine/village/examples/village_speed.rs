//! Replay speed against the JSON floor.
//!
//! ```sh
//! cargo run --release -p chronicle-village --example village_speed -- [games per count] [rounds]
//! ```
//!
//! Simulates `games` seeded games (default 20) of every player count (solo and 2–5), then
//! times three passes over the same bytes in the same run: (a) the floor, reading the JSON and
//! discarding it (`serde_json::from_slice::<serde::de::IgnoredAny>`), which no replay can beat;
//! (b) parsing only ([`chronicle_village::parse_only`]: the envelope, the setup and every entry's
//! notation, no rule); (c) the full replay with final scoring. Beside them, the JSON read into
//! a `serde_json::Value` tree shows what a tree would cost (the logs are read typed, without
//! one). Each pass runs `rounds` times (default 5), alternating, and the median is reported,
//! so that a noisy shared machine skews all three alike. Ratios are to the floor. The allocator
//! is the `chronicle` binary's (mimalloc), so that allocations cost what they cost there.
//!
//! For profiles and instruction counts, a third argument (`floor`, `tree`, `parse` or
//! `replay`) runs that pass alone, `rounds` times, and prints nothing but the corpus line.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::{Duration, Instant};

use chronicle_game::GameEngine;
use chronicle_village::Village;

fn arg(n: usize, default: usize) -> usize {
    std::env::args().nth(n).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// What one pass does with a log's bytes; true when the log passed.
type Pass<'a> = &'a dyn Fn(&[u8]) -> bool;

/// One pass of `f` over every log.
fn pass(logs: &[Vec<u8>], f: Pass<'_>) -> Duration {
    let t = Instant::now();
    let mut ok = 0usize;
    for log in logs {
        ok += usize::from(f(black_box(log)));
    }
    let d = t.elapsed();
    assert_eq!(ok, logs.len(), "every simulated log passes");
    d
}

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

fn main() {
    let games = arg(1, 20);
    let rounds = arg(2, 5).max(1);
    let mut logs = Vec::new();
    for players in 1..=5u8 {
        for seed in 0..games as u64 {
            match Village::simulate(seed, players) {
                Ok(log) => logs.push(log.to_string().into_bytes()),
                Err(e) => eprintln!("{players}p seed {seed}: {e}"),
            }
        }
    }
    let bytes: usize = logs.iter().map(Vec::len).sum();
    let entries: usize = logs.iter().map(|l| chronicle_village::parse_only(l).unwrap_or(0)).sum();
    println!("{} logs ({games} per player count, 1-5), {bytes} bytes, {entries} entries", logs.len());

    let floor = |b: &[u8]| serde_json::from_slice::<serde::de::IgnoredAny>(b).is_ok();
    let tree = |b: &[u8]| serde_json::from_slice::<serde_json::Value>(b).is_ok();
    let parse = |b: &[u8]| chronicle_village::parse_only(b).is_ok();
    let replay = |b: &[u8]| chronicle_village::replay(b).status == chronicle_village::Status::Complete;
    let passes: [(&str, Pass<'_>); 4] = [
        ("(a) JSON floor (IgnoredAny)", &floor),
        ("    JSON to a Value tree", &tree),
        ("(b) parse only", &parse),
        ("(c) full replay", &replay),
    ];
    // A third argument runs one pass `rounds` times and prints nothing, for profiles and
    // instruction counts: `floor`, `tree`, `parse` or `replay`.
    if let Some(only) = std::env::args().nth(3) {
        let ids = ["floor", "tree", "parse", "replay"];
        if let Some((_, (_, f))) = ids.iter().zip(&passes).find(|(id, _)| **id == only) {
            for _ in 0..rounds {
                pass(&logs, *f);
            }
        }
        return;
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); passes.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in passes.iter().enumerate() {
            times[i].push(pass(&logs, *f));
        }
    }
    let medians: Vec<Duration> = times.into_iter().map(median).collect();
    let base = medians[0].as_secs_f64().max(f64::MIN_POSITIVE);
    for ((name, _), d) in passes.iter().zip(&medians) {
        let s = d.as_secs_f64();
        println!(
            "{name:<30} {:>9.2} ms  {:>8.1} us/log  {:>7.1} MB/s  {:>6.2}x floor",
            s * 1e3,
            s * 1e6 / logs.len() as f64,
            bytes as f64 / s / 1e6,
            s / base
        );
    }
}
