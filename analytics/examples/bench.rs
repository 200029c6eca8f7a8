//! Benchmark: a synthetic corpus of N player-games, a full recompute, filtered queries
//! (computed, with bounds cutting a month, cached, and cold: the first query after appending one
//! game), appends, and the peak resident memory.
//!
//! ```sh
//! cargo run --release -p chronicle-analytics --example bench -- --player-games 1000000
//! ```
//!
//! Options: `--player-games N` (default 1,000,000), `--queries Q` filtered queries per metric
//! family (default 100), `--seed S`.

use std::time::{Duration, Instant};

use chronicle_analytics::synthetic::{self, Options, TOURNAMENTS};
use chronicle_analytics::{AnalyticsError, FurnishingSet, Stats, StatsFilter};
use chronicle_caverna::shuffle::SplitMix64;

fn arg(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.replace('_', "").parse().ok())
            .ok_or_else(|| format!("{name} needs a number")),
    }
}

/// `VmHWM` (peak resident set) and `VmRSS` from /proc/self/status, in MiB.
fn memory() -> (Option<f64>, Option<f64>) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map(|kb| kb / 1024.0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    // Nearest rank.
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn report(name: &str, mut times: Vec<f64>) {
    times.sort_by(f64::total_cmp);
    println!(
        "  {name:<12} n={:<4} p50 {:>8.2} ms   p99 {:>8.2} ms   max {:>8.2} ms",
        times.len(),
        percentile(&times, 0.50),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or(f64::NAN)
    );
}

/// A filter whose `played_at` bounds fall inside months (any instant, with an offset).
fn cut_filter(r: &mut SplitMix64) -> StatsFilter {
    let mut f = random_filter(r);
    let (year, month, day, hour) = (2021 + r.below(4), 1 + r.below(12), 1 + r.below(28), r.below(24));
    f.played_from = Some(format!("{year}-{month:02}-{day:02}T{hour:02}:30:00+02:00"));
    f.played_until = (r.below(2) == 0).then(|| format!("{}-{:02}-{:02}", year + 1, 1 + r.below(12), 1 + r.below(28)));
    f
}

type Family = (&'static str, fn(&Stats, &StatsFilter) -> Result<u64, AnalyticsError>);

/// The five families, through the cache, each returning a number to check.
const FAMILIES: [Family; 5] = [
    ("furnishings", |s, f| Ok(s.furnishings(f)?.player_games)),
    ("weapons", |s, f| Ok(s.weapons(f)?.player_games)),
    ("seats", |s, f| Ok(s.seats(f)?.by_seat.len() as u64)),
    ("scores", |s, f| Ok(s.scores(f, 10)?.player_games)),
    ("spaces", |s, f| Ok(s.spaces(f)?.placements)),
];

/// Times every family on every filter, clearing the cache before each query; reports per
/// family and overall, and returns the mean number of player-games selected.
fn time_families(title: &str, stats: &Stats, filters: &[StatsFilter]) -> Result<f64, AnalyticsError> {
    println!("{title}:");
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); FAMILIES.len()];
    let mut selected = 0u64;
    for f in filters {
        for (i, (_, query)) in FAMILIES.iter().enumerate() {
            stats.clear_cache();
            let t = Instant::now();
            let check = query(stats, f)?;
            times[i].push(ms(t.elapsed()));
            if i == 0 {
                selected += check;
            }
        }
    }
    let mut any = Vec::new();
    for ((name, _), times) in FAMILIES.iter().zip(times) {
        any.extend(times.iter().copied());
        report(name, times);
    }
    report("any family", any);
    Ok(selected as f64 / filters.len().max(1) as f64)
}

fn random_filter(r: &mut SplitMix64) -> StatsFilter {
    let mut f = StatsFilter::all();
    if r.below(3) > 0 {
        f = f.player_count(1 + r.below(5) as u8);
    }
    if r.below(3) == 0 {
        f = f.furnishing_set(if r.below(2) == 0 { FurnishingSet::Full } else { FurnishingSet::Introductory });
    }
    if r.below(4) == 0 {
        f = f.tournament(TOURNAMENTS[r.below(TOURNAMENTS.len())]);
    }
    if r.below(3) == 0 {
        let year = 2021 + r.below(4);
        let month = 1 + r.below(12);
        f = f.played_from(format!("{year}-{month:02}-01"));
        if r.below(2) == 0 {
            f = f.played_until(format!("{}-{month:02}-01T00:00:00Z", year + 1));
        }
    }
    f
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = arg(&args, "--player-games", 1_000_000)? as usize;
    let queries = arg(&args, "--queries", 100)? as usize;
    let seed = arg(&args, "--seed", 2024)?;
    println!("chronicle-analytics bench: {n} player-games, {queries} filtered queries per family, seed {seed}");
    println!("threads: {} (polars pool)", std::thread::available_parallelism().map_or(1, |n| n.get()));

    let t = Instant::now();
    let corpus = synthetic::corpus(Options::new(n, seed));
    println!(
        "corpus: {} games, {} player-games, {} tiles, {} loot, {} placements (generated in {:.0} ms)",
        corpus.games(),
        corpus.player_games.len(),
        corpus.tiles.len(),
        corpus.loot.len(),
        corpus.spaces.len(),
        ms(t.elapsed())
    );
    let (hwm, _) = memory();
    println!("memory after generating: peak {:.0} MiB", hwm.unwrap_or(f64::NAN));

    // Full recompute: rows -> frames -> every family for every game.
    let t = Instant::now();
    let stats = Stats::from_corpus(&corpus)?;
    let ingest = t.elapsed();
    let t = Instant::now();
    let all = stats.all(&StatsFilter::all())?;
    let compute = t.elapsed();
    println!(
        "full recompute: {:.0} ms (load rows into frames {:.0} ms + all five families, unfiltered {:.0} ms)",
        ms(ingest + compute),
        ms(ingest),
        ms(compute)
    );
    println!(
        "  check: {} player-games, p50 score {:.1}, {} placements",
        all.scores.player_games,
        all.scores.quantiles.map_or(f64::NAN, |q| q.p50),
        all.spaces.placements
    );
    let t = Instant::now();
    stats.clear_cache();
    let mut unfiltered = Vec::new();
    for (name, d) in [
        ("furnishings", {
            let t = Instant::now();
            stats.compute_furnishings(&StatsFilter::all())?;
            t.elapsed()
        }),
        ("weapons", {
            let t = Instant::now();
            stats.compute_weapons(&StatsFilter::all())?;
            t.elapsed()
        }),
        ("seats", {
            let t = Instant::now();
            stats.compute_seats(&StatsFilter::all())?;
            t.elapsed()
        }),
        ("scores", {
            let t = Instant::now();
            stats.compute_scores(&StatsFilter::all(), 10)?;
            t.elapsed()
        }),
        ("spaces", {
            let t = Instant::now();
            stats.compute_spaces(&StatsFilter::all())?;
            t.elapsed()
        }),
    ] {
        unfiltered.push(format!("{name} {:.0} ms", ms(d)));
    }
    println!("  unfiltered, per family: {} (total {:.0} ms)", unfiltered.join(", "), ms(t.elapsed()));

    // Filtered queries, computed (no cache).
    let mut r = SplitMix64::new(seed ^ 0x5EED);
    let filters: Vec<StatsFilter> = (0..queries).map(|_| random_filter(&mut r)).collect();
    let selected = time_families("filtered queries, computed (cache bypassed)", &stats, &filters)?;
    println!("  (mean selection: {selected:.0} player-games)");
    let cut: Vec<StatsFilter> = (0..queries).map(|_| cut_filter(&mut r)).collect();
    let selected = time_families("filtered queries whose played_at bounds cut months, computed", &stats, &cut)?;
    println!("  (mean selection: {selected:.0} player-games)");

    // The same filters with a `meta.source` condition (a class of its own) or an uploader (games
    // selected one by one, their rows tallied).
    let labelled: Vec<StatsFilter> = filters
        .iter()
        .enumerate()
        .map(|(i, f)| match i % 4 {
            0 => f.clone().exclude_source("simulate"),
            1 => f.clone().source("simulate"),
            2 => f.clone().uploader("club-b"),
            _ => f.clone().uploader("club-a").exclude_source("simulate"),
        })
        .collect();
    let selected = time_families("filtered queries with a source or uploader condition, computed", &stats, &labelled)?;
    println!("  (mean selection: {selected:.0} player-games)");

    // The same filters for one player (one of the synthetic corpus's 5,000 names): games selected
    // one by one, as by uploader.
    let players: Vec<StatsFilter> = filters
        .iter()
        .enumerate()
        .map(|(i, f)| f.clone().player(format!("name:synthetic {}", i * 37 % 5_000)))
        .collect();
    let selected = time_families("filtered queries for one player, computed", &stats, &players)?;
    println!("  (mean selection: {selected:.0} player-games)");

    // The same queries through the cache (second asking).
    for f in &filters {
        stats.all(f)?;
    }
    let mut cached = Vec::new();
    for f in &filters {
        let t = Instant::now();
        stats.all(f)?;
        cached.push(ms(t.elapsed()));
    }
    println!("filtered queries, cached (all five families per query):");
    report("all, cached", cached);

    // Freshness: one game arrives before each query; the query is the first after it (cold).
    let mut stats = stats;
    let mut appends = Vec::new();
    let mut cold: Vec<Vec<f64>> = vec![Vec::new(); FAMILIES.len()];
    for (q, f) in filters.iter().chain(&cut).enumerate() {
        let game =
            synthetic::corpus(Options { first_game_id: (1 << 40) + 10 * q as i64, ..Options::new(4, seed + q as u64) });
        let t = Instant::now();
        stats.add_games(&game)?;
        appends.push(ms(t.elapsed()));
        for (i, (_, query)) in FAMILIES.iter().enumerate() {
            let t = Instant::now();
            query(&stats, f)?;
            cold[i].push(ms(t.elapsed()));
        }
    }
    println!("cold: one game appended, then each family once (first query after the append), same filters:");
    report("append", appends);
    let mut any = Vec::new();
    for ((name, _), times) in FAMILIES.iter().zip(cold) {
        any.extend(times.iter().copied());
        report(name, times);
    }
    report("any family", any);
    let t = Instant::now();
    stats.all(&StatsFilter::all())?;
    println!("first unfiltered query of all families after the last append: {:.1} ms", ms(t.elapsed()));

    let (hwm, rss) = memory();
    drop(corpus);
    let (_, rss_stats) = memory();
    println!(
        "memory: peak RSS (VmHWM) {:.0} MiB; RSS at the end {:.0} MiB, {:.0} MiB after dropping the input rows; frames {:.0} MiB (estimated)",
        hwm.unwrap_or(f64::NAN),
        rss.unwrap_or(f64::NAN),
        rss_stats.unwrap_or(f64::NAN),
        stats.estimated_bytes() as f64 / (1024.0 * 1024.0)
    );
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("bench: {e}");
        std::process::exit(2);
    }
}
