//! Every statistic on a deterministic synthetic corpus, against the same statistic computed
//! with plain loops (`common`), under many filters.

mod common;

use std::sync::OnceLock;

use chronicle_analytics::synthetic::{self, Options};
use chronicle_analytics::*;

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| synthetic::corpus(Options::new(4000, 20_240_501)))
}

fn stats() -> &'static Stats {
    static S: OnceLock<Stats> = OnceLock::new();
    S.get_or_init(|| Stats::from_corpus(corpus()).expect("valid synthetic corpus"))
}

fn filters() -> Vec<(&'static str, StatsFilter)> {
    vec![
        ("all", StatsFilter::all()),
        ("solo", StatsFilter::all().player_count(1)),
        ("2p", StatsFilter::all().player_count(2)),
        ("4p", StatsFilter::all().player_count(4)),
        ("7p", StatsFilter::all().player_count(7)),
        ("intro", StatsFilter::all().furnishing_set(FurnishingSet::Introductory)),
        ("full 3p", StatsFilter::all().furnishing_set(FurnishingSet::Full).player_count(3)),
        ("winter cup", StatsFilter::all().tournament("Winter Cup")),
        ("unknown tournament", StatsFilter::all().tournament("No such cup")),
        ("2022", StatsFilter::all().played_from("2022-01-01").played_until("2023-01-01T00:00:00Z")),
        ("since mid 2023, offset bound", StatsFilter::all().played_from("2023-06-15T12:00:00+02:00")),
        ("before 2021-06", StatsFilter::all().played_until("2021-06-01")),
        ("league 2p 2024", StatsFilter::all().tournament("League").player_count(2).played_from("2024-01-01")),
        ("simulated", StatsFilter::all().source("simulate:random")),
        ("not simulated", StatsFilter::all().exclude_source("simulate:random")),
        ("unknown source left out", StatsFilter::all().exclude_source("no such source")),
        ("every simulated (prefix)", StatsFilter::all().source("simulate")),
        ("no simulated (prefix), 4p", StatsFilter::all().exclude_source("simulate").player_count(4)),
        ("uploader, 3p", StatsFilter::all().uploader("club-b").player_count(3)),
        ("unknown uploader", StatsFilter::all().uploader("nobody")),
        ("games with a player", StatsFilter::all().player("name:synthetic 17")),
        (
            "games with a player and their alias, 2023",
            StatsFilter::all().player("name:synthetic 17").player("name:synthetic 4242").played_from("2023-01-01"),
        ),
        ("games with a player nobody is", StatsFilter::all().player("name:nobody")),
        (
            "uploader, not simulated, 2023",
            StatsFilter::all().uploader("club-a").exclude_source("simulate:random").played_from("2023-01-01"),
        ),
        ("min sample 500", StatsFilter::all().min_sample(500)),
        ("min sample 0, 5p", StatsFilter::all().player_count(5).min_sample(0)),
    ]
}

#[test]
fn synthetic_corpus_has_realistic_shape() {
    let c = corpus();
    assert!(c.player_games.len() >= 4000 && c.player_games.len() < 4007);
    assert!(c.games() > 1000);
    let per_pg = |n: usize| n as f64 / c.player_games.len() as f64;
    assert!((5.0..12.0).contains(&per_pg(c.tiles.len())), "tiles per player-game {}", per_pg(c.tiles.len()));
    assert!((30.0..50.0).contains(&per_pg(c.spaces.len())), "placements per player-game {}", per_pg(c.spaces.len()));
    assert!(c.loot.len() > 1000);
    assert!(c.player_games.iter().any(|p| p.played_at.is_none()));
    assert!(c.player_games.iter().any(|p| p.furnishing_set == FurnishingSet::Introductory));
    // Ties for the win occur.
    let winners_per_game = c.player_games.iter().filter(|p| p.winner).count();
    assert!(winners_per_game > c.games());
    c.validate().expect("valid");
}

#[test]
fn the_same_seed_gives_the_same_corpus() {
    assert_eq!(synthetic::corpus(Options::new(500, 3)), synthetic::corpus(Options::new(500, 3)));
    assert_ne!(synthetic::corpus(Options::new(500, 3)), synthetic::corpus(Options::new(500, 4)));
}

#[test]
fn furnishings_match_plain_computation() {
    for (name, f) in filters() {
        common::assert_furnishings(&stats().furnishings(&f).unwrap(), &common::furnishings(corpus(), &f), name);
    }
}

#[test]
fn weapons_match_plain_computation() {
    for (name, f) in filters() {
        common::assert_weapons(&stats().weapons(&f).unwrap(), &common::weapons(corpus(), &f), name);
    }
}

#[test]
fn seats_match_plain_computation() {
    for (name, f) in filters() {
        common::assert_seats(&stats().seats(&f).unwrap(), &common::seats(corpus(), &f), name);
    }
}

#[test]
fn scores_match_plain_computation() {
    for (name, f) in filters() {
        for width in [1, 5, 10, 25] {
            common::assert_scores(&stats().scores(&f, width).unwrap(), &common::scores(corpus(), &f, width), name);
        }
    }
}

#[test]
fn spaces_match_plain_computation() {
    for (name, f) in filters() {
        common::assert_spaces(&stats().spaces(&f).unwrap(), &common::spaces(corpus(), &f), name);
    }
}

#[test]
fn filters_select_what_they_say() {
    let s = stats();
    let all = s.seats(&StatsFilter::all()).unwrap();
    let n_all: u64 = all.by_seat.iter().map(|r| r.win_rate.n).sum();
    assert_eq!(n_all as usize, corpus().player_games.len());
    // Player counts partition the corpus.
    let by_pc: u64 = (1..=7).map(|p| s.scores(&StatsFilter::all().player_count(p), 10).unwrap().player_games).sum();
    assert_eq!(by_pc, n_all);
    // Sets partition it too.
    let sets: u64 = [FurnishingSet::Full, FurnishingSet::Introductory]
        .iter()
        .map(|&set| s.scores(&StatsFilter::all().furnishing_set(set), 10).unwrap().player_games)
        .sum();
    assert_eq!(sets, n_all);
    // An unknown tournament selects nothing; a date range excludes games without a date.
    assert_eq!(s.scores(&StatsFilter::all().tournament("No such cup"), 10).unwrap().player_games, 0);
    let dated = s.scores(&StatsFilter::all().played_from("1900-01-01"), 10).unwrap().player_games;
    let undated = corpus().player_games.iter().filter(|p| p.played_at.is_none()).count() as u64;
    assert!(undated > 0);
    assert_eq!(dated + undated, n_all);
    // Splitting a range at an instant partitions it.
    let a =
        s.scores(&StatsFilter::all().played_from("2022-01-01").played_until("2023-03-01T10:00:00+01:00"), 10).unwrap();
    let b = s.scores(&StatsFilter::all().played_from("2023-03-01T09:00:00Z").played_until("2024-01-01"), 10).unwrap();
    let ab = s.scores(&StatsFilter::all().played_from("2022-01-01").played_until("2024-01-01"), 10).unwrap();
    assert_eq!(a.player_games + b.player_games, ab.player_games);
    // Only introductory tiles are eligible in introductory games.
    let intro = s.furnishings(&StatsFilter::all().furnishing_set(FurnishingSet::Introductory)).unwrap();
    for t in &intro.tiles {
        if t.tile.card().intro {
            assert_eq!(t.player_games, intro.player_games);
        } else {
            assert_eq!((t.player_games, t.built), (0, 0));
        }
    }
}

#[test]
fn min_sample_only_changes_flags() {
    let s = stats();
    let f30 = s.furnishings(&StatsFilter::all().player_count(5)).unwrap();
    let f0 = s.furnishings(&StatsFilter::all().player_count(5).min_sample(0)).unwrap();
    let f_big = s.furnishings(&StatsFilter::all().player_count(5).min_sample(u64::MAX)).unwrap();
    let (mut rates, mut flagged) = (0, 0);
    for ((a, b), c) in f30.tiles.iter().zip(&f0.tiles).zip(&f_big.tiles) {
        for (x, y, z) in [
            (&a.build_rate, &b.build_rate, &c.build_rate),
            (&a.win_rate_built, &b.win_rate_built, &c.win_rate_built),
            (&a.win_rate_not_built, &b.win_rate_not_built, &c.win_rate_not_built),
        ]
        .into_iter()
        .chain(
            a.by_round
                .iter()
                .zip(&b.by_round)
                .zip(&c.by_round)
                .map(|((x, y), z)| (&x.win_rate, &y.win_rate, &z.win_rate)),
        ) {
            assert_eq!(
                (x.successes, x.n, x.rate, x.ci_low, x.ci_high),
                (y.successes, y.n, y.rate, y.ci_low, y.ci_high)
            );
            assert_eq!(x.below_min_sample, x.n < 30);
            assert!(!y.below_min_sample && z.below_min_sample);
            rates += 1;
            flagged += usize::from(x.below_min_sample);
        }
    }
    assert!(flagged > 0 && flagged < rates, "some but not all 5-player rates have n < 30 ({flagged} of {rates})");
}

#[test]
fn statistics_show_the_planted_effects() {
    // The generator makes armed players score more; the statistics must see it.
    let w = stats().weapons(&StatsFilter::all()).unwrap();
    let peaceful = w.by_class[0].stats.mean_score.unwrap();
    let heavy = w.by_class[2].stats.mean_score.unwrap();
    assert!(heavy > peaceful, "{heavy} vs {peaceful}");
    // Rates are fractions with the estimate inside its interval.
    let f = stats().furnishings(&StatsFilter::all()).unwrap();
    for t in &f.tiles {
        for r in [&t.build_rate, &t.win_rate_built, &t.win_rate_not_built] {
            assert!((0.0..=1.0).contains(&r.rate) && r.ci_low <= r.rate && r.rate <= r.ci_high, "{r:?}");
        }
    }
}
