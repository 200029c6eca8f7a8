//! Benchmark of the outcome statistics (Village, Above and Below): a synthetic corpus of N
//! player-games shaped like Village's (2–5 players, 9 score rows, 5 counters, a third of the
//! games simulated), the time to load its rows into an `OutcomeCorpus` (the baseline), to count
//! them into buckets (what the counting step does with the games it counts), and the median and
//! slowest of R reports, unfiltered and filtered, both from the rows (counting them first) and
//! from the counted buckets (what a server does with the stored tallies it holds).
//!
//! ```sh
//! cargo run --release -p chronicle-analytics --example bench_outcomes -- --player-games 100000
//! ```

use std::time::{Duration, Instant};

use chronicle_analytics::outcomes::{report_from_buckets, GameOutcome, OutcomeCorpus, OutcomeFilter, PlayerOutcome};
use chronicle_caverna::shuffle::SplitMix64;

const ROWS: [&str; 9] =
    ["track_travel", "track_council", "track_mass", "travel", "church", "customers", "chronicle", "council", "coins"];
const COUNTERS: [&str; 5] =
    ["cities_visited", "crafts_held", "customers_served", "chronicle_members", "church_members"];

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn games(player_games: u64, seed: u64) -> Vec<GameOutcome> {
    let mut rng = SplitMix64::new(seed);
    let mut below = |n: u64| rng.next_u64() % n;
    let (mut out, mut made) = (Vec::new(), 0);
    while made < player_games {
        let players = 2 + below(4) as u8;
        let mut seats: Vec<PlayerOutcome> = (0..players)
            .map(|seat| {
                let rows: Vec<(String, i64)> = ROWS.iter().map(|r| ((*r).to_owned(), below(15) as i64)).collect();
                let counters = COUNTERS.iter().map(|c| ((*c).to_owned(), below(8) as i64)).collect();
                let total = rows.iter().map(|r| r.1).sum();
                PlayerOutcome { seat, winner: false, total, rows, counters }
            })
            .collect();
        let best = seats.iter().map(|p| p.total).max().unwrap_or(0);
        seats.iter_mut().for_each(|p| p.winner = p.total == best);
        let source = if below(3) == 0 { "simulate:random" } else { "club" };
        out.push(GameOutcome {
            game_id: out.len() as i64,
            source: Some(source.to_owned()),
            synthetic: false,
            players: seats,
        });
        made += u64::from(players);
    }
    out
}

fn timed(runs: u64, f: impl Fn()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], times[times.len() - 1])
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (n, runs) = (arg(&args, "--player-games", 100_000), arg(&args, "--runs", 21).max(1));
    let input = games(n, arg(&args, "--seed", 7));
    let load = || {
        let mut corpus = OutcomeCorpus::new(&ROWS, &COUNTERS);
        input.iter().for_each(|g| corpus.add(g));
        corpus
    };
    let (load_median, load_max) = timed(runs, || drop(load()));
    let corpus = load();
    let all = OutcomeFilter::default();
    let filtered =
        OutcomeFilter { min_players: 3, exclude_source: Some("simulate".into()), ..OutcomeFilter::default() };
    let (count_median, count_max) = timed(runs, || drop(corpus.buckets()));
    let (all_median, all_max) = timed(runs, || drop(corpus.report(&all)));
    let (f_median, f_max) = timed(runs, || drop(corpus.report(&filtered)));
    let buckets = corpus.buckets();
    let (rows, counters) = (corpus.row_ids(), corpus.counter_ids());
    let (ball_median, ball_max) = timed(runs, || drop(report_from_buckets(rows, counters, &buckets, &all)));
    let (bf_median, bf_max) = timed(runs, || drop(report_from_buckets(rows, counters, &buckets, &filtered)));
    let r = corpus.report(&all);
    assert_eq!(r, report_from_buckets(rows, counters, &buckets, &all), "the two readings agree");
    println!(
        "{} games, {} player-games, {} buckets; {runs} runs each (median / slowest)",
        corpus.games(),
        r.player_games,
        buckets.len()
    );
    println!("load the rows (baseline): {load_median:.2?} / {load_max:.2?}");
    println!("count the rows into buckets: {count_median:.2?} / {count_max:.2?}");
    println!("report from rows, every game: {all_median:.2?} / {all_max:.2?}");
    println!("report from rows, 3+ players without simulated games: {f_median:.2?} / {f_max:.2?}");
    println!("report from buckets, every game: {ball_median:.2?} / {ball_max:.2?}");
    println!("report from buckets, 3+ players without simulated games: {bf_median:.2?} / {bf_max:.2?}");
}
