//! The strong bot's strength and speed (docs/analysis.md "Strength"), with a same-run baseline.
//!
//! ```sh
//! cargo run --release -p chronicle-caverna --example strength -- \
//!     [--games G] [--players P] [--budget B] [--seed S] [--threads T] [--all]
//! ```
//!
//! Without `--all`: `G` games of `P` players in which one seat (seat `i mod P` in game `i`, so
//! that no seat is favoured) is the `strong` bot at budget `B` and the others are `mixed`
//! draws; then the same games (same seeds, same mixed seats) with that seat played by the
//! `weapons` and the `peaceful` strategy bots: the baselines. With `--all`: `G` games of all
//! `strong` seats, and the same seeds with all `mixed` seats as the baseline. Printed: the
//! tested seat's win share (ties shared), its median score, the winner's median score, and the
//! time per strong decision (a game's time over its strong placements; the other bots' share
//! is below 1%). Games run on `T` threads (default 2).

use std::time::Instant;

use chronicle_caverna::bots::{game_seed, seat_bots, simulate_seat_bots, SeatBot, Simulation};
use chronicle_caverna::notation::{Entry, FurnishingSet};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One game's result for the tested seat.
struct Played {
    win: f64,
    score: i64,
    winner: i64,
    seconds: f64,
    strong_placements: usize,
}

fn play(seats: &[SeatBot], tested: usize, seed: u64) -> Played {
    let started = Instant::now();
    let sim: Simulation = simulate_seat_bots(seats, FurnishingSet::Full, seed).expect("a simulated game finishes");
    let seconds = started.elapsed().as_secs_f64();
    let top = sim.scores.iter().copied().max().unwrap_or(0);
    let tied = sim.scores.iter().filter(|&&s| s == top).count().max(1);
    let strong: Vec<bool> = seats.iter().map(|s| matches!(s, SeatBot::Strong(_))).collect();
    let strong_placements = sim
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::Place { player, .. } if strong.get(*player as usize) == Some(&true)))
        .count();
    let score = sim.scores[tested];
    Played { win: if score == top { 1.0 / tied as f64 } else { 0.0 }, score, winner: top, seconds, strong_placements }
}

fn median(mut xs: Vec<i64>) -> f64 {
    xs.sort_unstable();
    match xs.len() {
        0 => 0.0,
        n if n % 2 == 1 => xs[n / 2] as f64,
        n => (xs[n / 2 - 1] + xs[n / 2]) as f64 / 2.0,
    }
}

fn run(label: &str, games: u64, threads: u64, seats_of: &(dyn Fn(u64) -> (Vec<SeatBot>, usize, u64) + Sync)) {
    let started = Instant::now();
    let results: Vec<Played> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (0..games)
                        .filter(|i| i % threads == t)
                        .map(|i| {
                            let (seats, tested, seed) = seats_of(i);
                            play(&seats, tested, seed)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a thread of games")).collect()
    });
    let n = results.len().max(1) as f64;
    let wins: f64 = results.iter().map(|r| r.win).sum();
    let placements: usize = results.iter().map(|r| r.strong_placements).sum();
    let seconds: f64 = results.iter().map(|r| r.seconds).sum();
    let per_decision = if placements > 0 { format!("{:.3} s", seconds / placements as f64) } else { "-".to_owned() };
    println!(
        "{label:<34} games {:>4}  tested seat wins {:>5.1}% (±{:.1})  its median {:>5.1}  winner median {:>5.1}  per strong decision {per_decision}  wall {:.0} s",
        results.len(),
        100.0 * wins / n,
        100.0 * 1.96 * ((wins / n) * (1.0 - wins / n) / n).sqrt(),
        median(results.iter().map(|r| r.score).collect()),
        median(results.iter().map(|r| r.winner).collect()),
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = arg(&args, "--games", 20);
    let players = arg(&args, "--players", 4) as usize;
    let budget = arg(&args, "--budget", u64::from(chronicle_caverna::bots::strong::DEFAULT_BUDGET)) as u32;
    let seed = arg(&args, "--seed", 1);
    let threads = arg(&args, "--threads", 2).max(1);
    let all = args.iter().any(|a| a == "--all");
    let seats = |tested: &str, others: &str, i: u64| {
        let game = game_seed(seed, i);
        let at = (i as usize) % players;
        let ids: Vec<&str> = (0..players).map(|s| if s == at { tested } else { others }).collect();
        (seat_bots(&ids.join(","), players, game, Some(budget)).expect("known bots"), at, game)
    };
    println!("{players}-player Caverna, budget {budget} playouts per decision, seed {seed}");
    if all {
        run("all strong", games, threads, &|i| seats("strong", "strong", i));
        run("baseline: all mixed", games, threads, &|i| seats("mixed", "mixed", i));
    } else {
        run("strong vs mixed", games, threads, &|i| seats("strong", "mixed", i));
        run("baseline: weapons vs mixed", games, threads, &|i| seats("weapons", "mixed", i));
        run("baseline: peaceful vs mixed", games, threads, &|i| seats("peaceful", "mixed", i));
    }
}
