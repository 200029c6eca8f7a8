//! Replay speed of Above and Below logs against the JSON floor.
//!
//! ```sh
//! cargo run --release -p chronicle-above-and-below --example aab_speed -- [--games N] [--runs R]
//! ```
//!
//! Simulates `N` games per player count (2, 3 and 4; default 100 each) with the synthetic
//! component set, serialises them once, then times over exactly the same bytes in this run:
//!
//! * **floor**: `serde_json::from_slice::<serde::de::IgnoredAny>`, the least any JSON reader
//!   must do (tokenise and validate, build nothing);
//! * **parse**: [`chronicle_above_and_below::parse_only`], the envelope, the setup notation, the
//!   catalogue (most of a log's bytes) and every entry read into the engine's typed form, no
//!   rule applied;
//! * **replay**: [`chronicle_above_and_below::replay`], the whole verification and scoring.
//!
//! Each measurement is repeated `R` times (default 5), the three in turn each round so that a
//! change of the machine's load falls on all three alike, and the median is printed, with its
//! ratio to the floor. Allocation is mimalloc's, as in the `chronicle` binary. The simulated logs use seeded mode, so a replay also re-derives every die and
//! draw; the games are whole (7 rounds), so scoring is included.
//!
//! For profiles and instruction counts, `--only floor|parse|replay` runs that measure alone,
//! `R` times per player count, and prints no timing.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::{Duration, Instant};

use chronicle_above_and_below::{parse_only, replay, AboveAndBelow, Status};
use chronicle_game::GameEngine;

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    match args.iter().position(|a| a == name) {
        None => default,
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            eprintln!("{name} needs a number");
            std::process::exit(2)
        }),
    }
}

/// One timing of `f` over every log.
fn time(logs: &[Vec<u8>], f: &dyn Fn(&[u8])) -> Duration {
    let t = Instant::now();
    for log in logs {
        f(black_box(log));
    }
    t.elapsed()
}

/// A measure: what is timed on one log.
type Measure<'a> = &'a dyn Fn(&[u8]);

/// The median of each measure's `runs` timings over every log, the measures taken in turn.
fn medians<const N: usize>(runs: u64, logs: &[Vec<u8>], measures: [Measure; N]) -> [Duration; N] {
    let mut times: [Vec<Duration>; N] = std::array::from_fn(|_| Vec::new());
    for _ in 0..runs.max(1) {
        for (t, f) in times.iter_mut().zip(measures) {
            t.push(time(logs, f));
        }
    }
    times.map(|mut t| {
        t.sort();
        t[t.len() / 2]
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = arg(&args, "--games", 100);
    let runs = arg(&args, "--runs", 5);
    println!(
        "{:>7} {:>6} {:>9} {:>11} {:>11} {:>11} {:>7} {:>7}",
        "players", "games", "MB", "floor ms", "parse ms", "replay ms", "parse×", "replay×"
    );
    for players in 2..=4u8 {
        let logs: Vec<Vec<u8>> = (0..games)
            .map(|seed| {
                let log = AboveAndBelow::simulate(seed, players).unwrap_or_else(|e| panic!("simulate {seed}: {e}"));
                serde_json::to_vec(&log).expect("serialise")
            })
            .collect();
        // Every log must replay complete, or the timing would measure an early stop.
        for (seed, log) in logs.iter().enumerate() {
            let r = replay(log);
            assert_eq!(r.status, Status::Complete, "seed {seed}, {players} players: {:?}", r.error);
        }
        if let Some(only) = args.iter().position(|a| a == "--only").and_then(|i| args.get(i + 1)) {
            let measure: Measure = match only.as_str() {
                "floor" => &|b| {
                    black_box(serde_json::from_slice::<serde::de::IgnoredAny>(b).ok());
                },
                "parse" => &|b| {
                    black_box(parse_only(b).ok());
                },
                _ => &|b| {
                    black_box(replay(b));
                },
            };
            for _ in 0..runs.max(1) {
                time(&logs, measure);
            }
            continue;
        }
        let bytes: usize = logs.iter().map(Vec::len).sum();
        let [floor, parse, full] = medians(
            runs,
            &logs,
            [
                &|b| {
                    black_box(serde_json::from_slice::<serde::de::IgnoredAny>(b).expect("json"));
                },
                &|b| {
                    black_box(parse_only(b).expect("parse"));
                },
                &|b| {
                    black_box(replay(b));
                },
            ],
        );
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{players:>7} {games:>6} {:>9.2} {:>11.2} {:>11.2} {:>11.2} {:>7.1} {:>7.1}",
            bytes as f64 / 1e6,
            ms(floor),
            ms(parse),
            ms(full),
            ms(parse) / ms(floor),
            ms(full) / ms(floor),
        );
    }
}
