//! Replay speed against the JSON floor, on the same bytes in the same run.
//!
//! ```sh
//! cargo run --release -p chronicle-caverna --example replay_speed -- [GAMES] [PLAYERS] [ROUNDS]
//! ```
//!
//! Simulates GAMES games of PLAYERS (default 1,000 of 4, random bots, seed 1: the corpus of
//! docs/performance.md), then times ROUNDS times (default 5, the median reported) over every
//! log: (a) the JSON floor, `serde_json::from_slice::<IgnoredAny>` (checking the bytes are
//! JSON, building nothing); (b) reading each log into a `serde_json::Value` tree (how logs were
//! read before); (c) `parse_only` (envelope, setup and every entry's notation); (d) `replay`.
//! Each round runs the four in turn, so that a machine whose speed drifts slows all of them
//! alike; the allocator is the `chronicle` binary's (mimalloc).
//!
//! For instruction counts and profiles, a fourth argument runs one measure ROUNDS times and
//! prints nothing: `floor`, `tree`, `parse`, `replay`, or `none` (only the simulation, to
//! subtract):
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/replay_speed 1000 4 1 parse
//! ```

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::{Duration, Instant};

use chronicle_caverna::bots::{self, BotChoice, BotKind};
use chronicle_caverna::notation::FurnishingSet;

/// One measure: its name and what it does with each log.
type Measure<'a> = (&'a str, &'a dyn Fn(&[u8]));

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time(logs: &[String], f: &dyn Fn(&[u8])) -> Duration {
    let t = Instant::now();
    for log in logs {
        f(log.as_bytes());
    }
    t.elapsed()
}

fn main() {
    let arg = |i: usize, default: usize| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (games, players, rounds) = (arg(1, 1000), arg(2, 4), arg(3, 5).max(1));
    let logs: Vec<String> = (0..games as u64)
        .filter_map(|i| {
            let seed = bots::game_seed(1, i);
            let kinds = bots::seat_kinds(BotChoice::All(BotKind::Random), players, seed);
            let setup = bots::simulated_setup(&kinds, FurnishingSet::Full, seed);
            bots::simulate(&setup, &kinds, seed).ok().map(|s| s.log_json())
        })
        .collect();
    let bytes: usize = logs.iter().map(String::len).sum();
    let only = std::env::args().nth(4);
    if only.is_none() {
        println!("{} logs of {players} players, {:.1} MB; median of {rounds} rounds", logs.len(), bytes as f64 / 1e6);
    }
    let measures: [Measure; 4] = [
        ("JSON floor", &|b| {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(b).ok());
        }),
        ("JSON tree", &|b| {
            black_box(serde_json::from_slice::<serde_json::Value>(b).ok());
        }),
        ("parse only", &|b| {
            black_box(chronicle_caverna::parse_only(b).ok());
        }),
        ("replay", &|b| {
            black_box(chronicle_caverna::replay(b).status);
        }),
    ];
    if let Some(only) = only {
        let ids = ["floor", "tree", "parse", "replay"];
        if let Some((_, (_, f))) = ids.iter().zip(&measures).find(|(id, _)| **id == only) {
            for _ in 0..rounds {
                time(&logs, *f);
            }
        }
        return;
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); measures.len()];
    for _ in 0..rounds {
        for (t, (_, f)) in times.iter_mut().zip(&measures) {
            t.push(time(&logs, *f));
        }
    }
    let medians: Vec<Duration> = times.into_iter().map(median).collect();
    let floor = medians[0];
    let ratio = |d: Duration| d.as_secs_f64() / floor.as_secs_f64();
    for ((name, _), d) in measures.iter().zip(medians) {
        println!("{name:<12} {:>8.1} ms  {:>5.2}× floor", d.as_secs_f64() * 1e3, ratio(d));
    }
}
