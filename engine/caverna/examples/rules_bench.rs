//! Benchmarks of the engine's rules that a unit test must not time.
//!
//! ```sh
//! cargo run --release -p chronicle-caverna --example rules_bench -- [--rounds R] [--calls N]
//! ```
//!
//! `housing`: the animal housing check (`rules::housing::fits`, `docs/rules/caverna-reference.md` F.1) with absurd
//! animal and dog counts (up to `u32::MAX`, the rows of the unit test
//! `f1_big_numbers_are_rejected_quickly`) against a same-run baseline: the same board, the same
//! number of calls and the same verdicts with small counts. The module documentation promises
//! a cost independent of the magnitudes: at most `min(dogs, zones) + 1` greedy runs, so a row
//! whose huge dog count guards all twelve zones of this board costs up to twelve runs where its
//! small twin (4–5 dogs) costs a few; every other row should be at a ratio of about 1. `R`
//! alternating rounds (default 7) of `N` calls per case (default 200,000); the median round is
//! reported, then the same row by row.

use std::hint::black_box;
use std::time::Instant;

use chronicle_caverna::board::{Coord, HomeBoard, Tile, Under};
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::rules::housing::fits;

/// One housing question: dwarfs in play, `[sheep, donkey, boar, cattle]`, dogs.
type Row = (u32, [u32; 4], u32);

const MAX: u32 = u32::MAX;

/// The rows of `f1_big_numbers_are_rejected_quickly`.
const BIG: [Row; 8] = [
    (2, [500, 0, 0, 0], 0),
    (2, [0, 0, 500, 0], 500),
    (2, [500, 0, 0, 0], 500),
    (2, [600, 0, 0, 0], 500),
    (MAX, [MAX; 4], MAX),
    (MAX, [MAX, 0, 0, 0], 0),
    (MAX, [MAX, 0, 0, 3], MAX),
    (MAX, [MAX, 0, 0, 4], MAX),
];

/// The baseline: the same questions with small counts, row by row the same verdicts.
const SMALL: [Row; 8] = [
    (2, [6, 0, 0, 0], 0),
    (2, [0, 0, 4, 0], 4),
    (2, [5, 0, 0, 0], 3),
    (2, [20, 0, 0, 0], 3),
    (5, [6; 4], 6),
    (5, [5, 0, 0, 0], 0),
    (5, [5, 0, 0, 3], 5),
    (5, [5, 0, 0, 4], 5),
];

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    match args.iter().position(|a| a == name) {
        None => default,
        Some(i) => args.get(i + 1).and_then(|v| v.replace('_', "").parse().ok()).unwrap_or_else(|| {
            eprintln!("{name} needs a number");
            std::process::exit(2)
        }),
    }
}

/// The board of the unit test: twelve meadows (one with a stable), the entry dwelling, a
/// Cuddle room.
fn board() -> HomeBoard {
    let mut b = HomeBoard::new();
    for row in 0..=3 {
        for col in 0..=2 {
            b.set_tile(Coord::at(row, col), Tile::Meadow);
        }
    }
    b.set_stable(Coord::at(0, 0));
    b.set_tile(Coord::at(1, 3), Tile::Furnished { tile: Furnishing::CuddleRoom, under: Under::Cavern });
    b
}

/// Nanoseconds per `fits` call over `calls` calls cycling through `rows`.
fn time(board: &HomeBoard, rows: &[Row], calls: u64) -> f64 {
    let mut yes = 0u64;
    let t = Instant::now();
    for i in 0..calls {
        let (dwarfs, animals, dogs) = rows[i as usize % rows.len()];
        yes += u64::from(fits(black_box(board), black_box(dwarfs), black_box(animals), black_box(dogs)));
    }
    let ns = t.elapsed().as_secs_f64() * 1e9 / calls as f64;
    black_box(yes);
    ns
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn housing(rounds: u64, calls: u64) {
    let b = board();
    let verdicts = |rows: &[Row]| rows.iter().map(|&(w, a, d)| fits(&b, w, a, d)).collect::<Vec<_>>();
    assert_eq!(verdicts(&BIG), verdicts(&SMALL), "the baseline must give the same verdicts");
    println!("housing: F.1 check on the big-numbers board, {} rows, verdicts {:?}", BIG.len(), verdicts(&BIG));
    // Warm-up, then alternate so that both cases see the same machine load.
    time(&b, &SMALL, calls / 10 + 1);
    time(&b, &BIG, calls / 10 + 1);
    let (mut small, mut big, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let s = time(&b, &SMALL, calls);
        let g = time(&b, &BIG, calls);
        small.push(s);
        big.push(g);
        ratios.push(g / s);
    }
    let (s, g, r) = (median(small), median(big), median(ratios));
    println!("  small counts (baseline) {s:>8.1} ns/call   median of {rounds} rounds of {calls} calls");
    println!("  big counts              {g:>8.1} ns/call");
    println!("  ratio big / small       {r:>8.2}   (median of the rounds' ratios)");
    // Row by row (each row repeated, so branches are better predicted than above).
    println!("  by row (ns/call, median of {rounds} rounds of {} calls):", calls / 4 + 1);
    for (i, (small_row, big_row)) in SMALL.iter().zip(&BIG).enumerate() {
        let (mut s, mut g) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            s.push(time(&b, std::slice::from_ref(small_row), calls / 4 + 1));
            g.push(time(&b, std::slice::from_ref(big_row), calls / 4 + 1));
        }
        let (s, g) = (median(s), median(g));
        println!("    row {i}: small {s:>7.1}  big {g:>7.1}  ratio {:>5.2}   big = {big_row:?}", g / s);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = arg(&args, "--rounds", 7).max(1);
    let calls = arg(&args, "--calls", 200_000).max(1);
    println!("chronicle-caverna bench");
    housing(rounds, calls);
}
