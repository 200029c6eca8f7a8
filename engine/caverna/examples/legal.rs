//! Timing of the legal-entry query (`GameEngine::legal_next`, what the API's `legalEntries`
//! runs) at typical positions, against a same-run baseline: replaying the same prefix alone.
//!
//! ```sh
//! cargo run --release -p chronicle-caverna --example legal -- [--games G] [--positions P]
//! ```
//!
//! Positions: `P` evenly spaced prefixes of `G` simulated games for each of 2, 3 and 4 players
//! (mixed bots, fixed seeds). For each position the query and the replay alone are timed
//! (alternating, median of 5); p50 and p99 over all positions are printed with their ratio.

use std::time::Instant;

use chronicle_caverna::bots::{seat_kinds, simulate_game, simulated_setup, BotChoice};
use chronicle_caverna::notation::FurnishingSet;
use chronicle_caverna::Caverna;
use chronicle_game::GameEngine;
use serde_json::Value;

fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn median_micros(mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[2]
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games = arg(&args, "--games", 4);
    let positions = arg(&args, "--positions", 12);
    let (mut query, mut replay, mut offered) = (Vec::new(), Vec::new(), Vec::new());
    for players in [2usize, 3, 4] {
        for g in 0..games as u64 {
            let seed = 1000 + g + 100 * players as u64;
            let kinds = seat_kinds(BotChoice::Mixed, players, seed);
            let setup = simulated_setup(&kinds, FurnishingSet::Full, seed);
            let Ok(log) = simulate_game(&setup, &kinds, seed) else { continue };
            let entries = log["entries"].as_array().cloned().unwrap_or_default();
            for k in 1..=positions {
                let m = entries.len() * k / (positions + 1);
                let mut prefix = log.clone();
                prefix["entries"] = Value::Array(entries[..m].to_vec());
                prefix.as_object_mut().map(|o| o.remove("claimed"));
                let bytes = serde_json::to_vec(&prefix).unwrap_or_default();
                let mut n = 0;
                query.push(median_micros(|| n = Caverna::legal_next(&bytes, 200).entries.len()));
                replay.push(median_micros(|| {
                    std::hint::black_box(Caverna::replay(&bytes));
                }));
                offered.push(n as f64);
            }
        }
    }
    for v in [&mut query, &mut replay, &mut offered] {
        v.sort_by(f64::total_cmp);
    }
    println!("chronicle-caverna legal-entry query, {} positions (2-4 players)", query.len());
    println!("entries offered: p50 {:.0}, p99 {:.0}", quantile(&offered, 0.5), quantile(&offered, 0.99));
    for (name, q) in [("p50", 0.5), ("p99", 0.99)] {
        let (a, b) = (quantile(&query, q), quantile(&replay, q));
        println!("{name}: legal_next {a:.0} µs, replay alone {b:.0} µs, ratio {:.2}", a / b);
    }
}
