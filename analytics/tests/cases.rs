//! Hand-made corpora with answers worked out by hand, edge cases, Wilson intervals, input
//! checks and incremental appends.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use chronicle_analytics::synthetic::{self, Options};
use chronicle_analytics::weapons::LOOT_ITEMS;
use chronicle_analytics::*;
use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::notation::LootItem;

fn approx(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[allow(clippy::too_many_arguments)]
fn pg(
    game: i64,
    pc: u8,
    set: FurnishingSet,
    t: Option<&str>,
    at: Option<&str>,
    seat: u8,
    total: i64,
    rank: u8,
    winner: bool,
    strength: Option<u8>,
    exp: u32,
) -> PlayerGame {
    PlayerGame {
        game_id: game,
        player_count: pc,
        furnishing_set: set,
        tournament: t.map(str::to_owned),
        source: None,
        uploader: None,
        player: Some(format!("name:p{seat}")),
        played_at: at.map(str::to_owned),
        seat,
        total,
        rank,
        winner,
        max_strength: strength,
        first_armed: strength.map(|s| s.min(12)),
        first_expedition: (exp > 0).then(|| (exp as u8 + 3).min(12)),
        expeditions: exp,
    }
}

fn tile(game_id: i64, seat: u8, tile: Furnishing, round: u8) -> TileBuilt {
    TileBuilt { game_id, seat, tile, round }
}

fn space(game_id: i64, seat: u8, round: u8, space: ActionSpace) -> SpaceUse {
    SpaceUse { game_id, seat, round, space }
}

/// Three games, seven player-games (see the comments for the answers).
fn tiny() -> Corpus {
    use FurnishingSet::{Full, Introductory};
    let t = Some("T");
    Corpus {
        player_games: vec![
            pg(1, 2, Full, t, Some("2024-01-10T10:00:00Z"), 0, 50, 1, true, Some(8), 3),
            pg(1, 2, Full, t, Some("2024-01-10T10:00:00Z"), 1, 30, 2, false, None, 0),
            pg(2, 2, Introductory, None, None, 0, 20, 2, false, Some(3), 1),
            pg(2, 2, Introductory, None, None, 1, 40, 1, true, None, 0),
            pg(3, 3, Full, t, Some("2024-02-01"), 0, 60, 1, true, Some(10), 6),
            pg(3, 3, Full, t, Some("2024-02-01"), 1, 60, 1, true, None, 0),
            pg(3, 3, Full, t, Some("2024-02-01"), 2, -5, 3, false, None, 0),
        ],
        tiles: vec![
            tile(1, 0, Furnishing::Carpenter, 2),
            tile(1, 0, Furnishing::Dwelling, 3),
            tile(1, 0, Furnishing::Dwelling, 5),
            tile(1, 1, Furnishing::Miner, 4),
            tile(2, 0, Furnishing::Carpenter, 6),
            tile(3, 0, Furnishing::Dwelling, 2),
            tile(3, 1, Furnishing::Carpenter, 1),
        ],
        loot: vec![
            LootTaken { game_id: 1, seat: 0, item: LootItem::LootWood },
            LootTaken { game_id: 1, seat: 0, item: LootItem::LootWood },
            LootTaken { game_id: 1, seat: 0, item: LootItem::LootDog },
            LootTaken { game_id: 2, seat: 0, item: LootItem::LootWood },
        ],
        spaces: vec![
            space(1, 0, 1, ActionSpace::Logging),
            space(1, 0, 1, ActionSpace::Excavation),
            space(1, 1, 1, ActionSpace::Supplies),
            space(1, 0, 2, ActionSpace::Logging),
            space(1, 1, 2, ActionSpace::Growth),
            space(2, 1, 1, ActionSpace::Logging),
        ],
    }
}

#[test]
fn wilson_interval_known_values() {
    let cases = [
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (50, 100, 0.403832, 0.596168),
        (1, 3, 0.061492, 0.792340),
        (81, 263, 0.255289, 0.366210),
    ];
    for (k, n, lo, hi) in cases {
        let r = Rate::new(k, n, 30);
        assert!((r.ci_low - lo).abs() < 1e-6 && (r.ci_high - hi).abs() < 1e-6, "{k}/{n}: {r:?}");
        assert!(approx(r.rate, k as f64 / n as f64));
        assert_eq!(r.below_min_sample, n < 30);
    }
    let r = Rate::new(5, 10, 30);
    assert!((r.ci_low - 0.2366).abs() < 5e-5 && (r.ci_high - 0.7634).abs() < 5e-5);
    // No observation: no information.
    let none = Rate::new(0, 0, 30);
    assert_eq!((none.rate, none.ci_low, none.ci_high, none.below_min_sample), (0.0, 0.0, 1.0, true));
    assert!(!Rate::new(0, 0, 0).below_min_sample);
    assert_eq!(wilson(3, 0, 1.96), (0.0, 1.0));
}

/// Welch's interval on the difference of mean scores, worked by hand: 2-player games only,
/// carpenter built by scores 50 and 20 (mean 35, variance 450), not built by 30 and 40 (mean
/// 35, variance 50): difference 0, variance 450/2 + 50/2 = 250, interval ±1.96·√250.
#[test]
fn mean_score_difference_interval_is_welchs_by_hand() {
    let s = Stats::from_corpus(&tiny()).unwrap();
    let f = s.furnishings(&StatsFilter::all().player_count(2)).unwrap();
    let c = f.tile(Furnishing::Carpenter).unwrap();
    assert!(approx(c.mean_score_difference.unwrap(), 0.0));
    let (lo, hi) = c.mean_score_difference_ci.unwrap();
    let half = 1.96 * 250f64.sqrt();
    assert!(approx(lo, -half) && approx(hi, half), "({lo}, {hi})");
}

#[test]
fn tiny_corpus_tiles() {
    let s = Stats::from_corpus(&tiny()).unwrap();
    let f = s.furnishings(&StatsFilter::all()).unwrap();
    assert_eq!(f.player_games, 7);
    assert_eq!(f.tiles.len(), 48);

    let c = f.tile(Furnishing::Carpenter).unwrap();
    assert_eq!((c.player_games, c.built), (7, 3));
    assert_eq!((c.win_rate_built.successes, c.win_rate_built.n), (2, 3));
    assert_eq!((c.win_rate_not_built.successes, c.win_rate_not_built.n), (2, 4));
    assert!(approx(c.mean_score_built.unwrap(), 130.0 / 3.0));
    assert!(approx(c.mean_score_not_built.unwrap(), 31.25));
    // 2 players: 1/2 vs 1/2 (weight 2); 3 players: 1/1 vs 1/2 (weight 1).
    assert!(approx(c.win_rate_difference.unwrap(), 0.5 / 3.0));
    // Its interval combines the two player counts' Newcombe intervals (MOVER): it holds the
    // difference, and with one player count it would be that count's Newcombe interval.
    let (lo, hi) = c.win_rate_difference_ci.unwrap();
    assert!(lo < 0.5 / 3.0 && 0.5 / 3.0 < hi && lo >= -1.0 && hi <= 1.0, "({lo}, {hi})");
    let two = chronicle_analytics::rate::newcombe(1, 2, 1, 2).unwrap();
    let three = chronicle_analytics::rate::newcombe(1, 1, 1, 2).unwrap();
    let below = ((2.0 / 3.0) * (two.difference - two.ci_low)).hypot((1.0 / 3.0) * (three.difference - three.ci_low));
    assert!(approx(lo, 0.5 / 3.0 - below), "({lo}, {hi})");
    // 2 players: 35 vs 35; 3 players: 60 vs 27.5.
    assert!(approx(c.mean_score_difference.unwrap(), 32.5 / 3.0));
    // One 3-player builder: that count's scores have no variance, so no interval.
    assert_eq!(c.mean_score_difference_ci, None);
    assert!(approx(c.mean_round_built.unwrap(), 3.0));
    let rounds: Vec<(u8, u64, u64)> =
        c.by_round.iter().map(|r| (r.round, r.win_rate.successes, r.win_rate.n)).collect();
    assert_eq!(rounds, vec![(1, 1, 1), (2, 1, 1), (6, 0, 1)]);
    assert!(c.win_rate_built.below_min_sample);

    // Not in the introductory set: only the five full-set player-games are eligible.
    let m = f.tile(Furnishing::Miner).unwrap();
    assert_eq!((m.player_games, m.built), (5, 1));
    assert_eq!((m.win_rate_built.successes, m.win_rate_built.n), (0, 1));
    assert_eq!((m.win_rate_not_built.successes, m.win_rate_not_built.n), (3, 4));
    assert!(approx(m.mean_score_not_built.unwrap(), 41.25));
    assert!(approx(m.win_rate_difference.unwrap(), -1.0));
    assert!(approx(m.mean_score_difference.unwrap(), -20.0));

    // A dwelling built twice counts once, at its first round.
    let d = f.tile(Furnishing::Dwelling).unwrap();
    assert_eq!(d.built, 2);
    assert!(approx(d.mean_round_built.unwrap(), 2.5));

    // A tile never built.
    let q = f.tile(Furnishing::Quarry).unwrap();
    assert_eq!((q.player_games, q.built), (5, 0));
    assert_eq!(
        (q.win_rate_built.n, q.win_rate_built.rate, q.win_rate_built.ci_low, q.win_rate_built.ci_high),
        (0, 0.0, 0.0, 1.0)
    );
    assert!(q.win_rate_built.below_min_sample);
    assert_eq!((q.win_rate_not_built.successes, q.win_rate_not_built.n), (3, 5));
    assert_eq!(
        (q.mean_score_built, q.win_rate_difference, q.mean_score_difference, q.mean_round_built),
        (None, None, None, None)
    );
    assert!(q.by_round.is_empty());
    common::assert_furnishings(&f, &common::furnishings(&tiny(), &StatsFilter::all()), "tiny");
}

#[test]
fn tiny_corpus_weapons() {
    let s = Stats::from_corpus(&tiny()).unwrap();
    let w = s.weapons(&StatsFilter::all()).unwrap();
    let class: Vec<(WeaponClass, u64, u64)> =
        w.by_class.iter().map(|c| (c.class, c.stats.win_rate.successes, c.stats.win_rate.n)).collect();
    assert_eq!(class, vec![(WeaponClass::Peaceful, 2, 4), (WeaponClass::Light, 0, 1), (WeaponClass::Heavy, 2, 2)]);
    assert!(approx(w.by_class[0].stats.mean_score.unwrap(), 31.25));
    assert!(approx(w.by_class[2].stats.mean_score.unwrap(), 55.0));
    let strengths: Vec<(Option<u8>, u64)> =
        w.by_max_strength.iter().map(|s| (s.max_strength, s.stats.win_rate.n)).collect();
    assert_eq!(strengths, vec![(None, 4), (Some(3), 1), (Some(8), 1), (Some(10), 1)]);
    let buckets: Vec<(&str, u64, u64)> =
        w.by_expeditions.iter().map(|b| (b.bucket.id(), b.stats.win_rate.successes, b.stats.win_rate.n)).collect();
    assert_eq!(buckets, vec![("0", 2, 4), ("1-2", 0, 1), ("3-5", 1, 1), ("6+", 1, 1)]);
    assert_eq!(w.loot.len(), 23);
    let dog = &w.loot[0];
    assert_eq!(dog.item, LootItem::LootDog);
    assert_eq!((dog.winners.successes, dog.winners.n, dog.others.successes, dog.others.n), (1, 4, 0, 3));
    assert!(approx(dog.difference, 0.25));
    // Newcombe's interval of 1/4 − 0/3: it holds the difference and stays within ±1.
    let d = chronicle_analytics::rate::newcombe(1, 4, 0, 3).unwrap();
    assert_eq!(dog.difference_ci, Some((d.ci_low, d.ci_high)));
    assert!(d.ci_low < 0.25 && 0.25 < d.ci_high && d.ci_low >= -1.0 && d.ci_high <= 1.0);
    let wood = w.loot.last().unwrap();
    assert_eq!(wood.item, LootItem::LootWood);
    assert_eq!((wood.winners.successes, wood.others.successes), (1, 1));
    assert!(approx(wood.difference, 0.25 - 1.0 / 3.0));
    common::assert_weapons(&w, &common::weapons(&tiny(), &StatsFilter::all()), "tiny");
}

#[test]
fn tiny_corpus_general() {
    let s = Stats::from_corpus(&tiny()).unwrap();
    let seats = s.seats(&StatsFilter::all()).unwrap();
    let rows: Vec<(u8, u8, u64, u64)> =
        seats.by_seat.iter().map(|r| (r.player_count, r.seat, r.win_rate.successes, r.win_rate.n)).collect();
    assert_eq!(rows, vec![(2, 0, 1, 2), (2, 1, 1, 2), (3, 0, 1, 1), (3, 1, 1, 1), (3, 2, 0, 1)]);
    assert_eq!(seats.first_player.len(), 2);
    assert!(approx(seats.first_player[0].advantage, 0.0));
    assert!(approx(seats.first_player[1].advantage, 1.0 - 1.0 / 3.0));
    let overall = seats.first_player_overall.as_ref().unwrap();
    assert_eq!((overall.win_rate.successes, overall.win_rate.n), (2, 3));
    assert!(approx(overall.expected, (0.5 + 0.5 + 1.0 / 3.0) / 3.0));

    let sc = s.scores(&StatsFilter::all(), 10).unwrap();
    assert_eq!((sc.player_games, sc.min, sc.max), (7, Some(-5), Some(60)));
    assert!(approx(sc.mean.unwrap(), 255.0 / 7.0));
    let q = sc.quantiles.unwrap();
    for (got, want) in [(q.p10, 10.0), (q.p25, 25.0), (q.p50, 40.0), (q.p75, 55.0), (q.p90, 60.0)] {
        assert!(approx(got, want), "{q:?}");
    }
    let hist: Vec<(i64, u64)> = sc.histogram.iter().map(|b| (b.from, b.count)).collect();
    assert_eq!(hist, vec![(-10, 1), (0, 0), (10, 0), (20, 1), (30, 1), (40, 1), (50, 1), (60, 2)]);
    let sc7 = s.scores(&StatsFilter::all(), 7).unwrap();
    assert_eq!(sc7.histogram.first().map(|b| b.from), Some(-7));
    assert_eq!(s.scores(&StatsFilter::all(), 0).unwrap().bucket_width, 1);

    let sp = s.spaces(&StatsFilter::all()).unwrap();
    assert_eq!(sp.placements, 6);
    let r1: Vec<(ActionSpace, u64)> = sp.rounds[0].spaces.iter().map(|c| (c.space, c.count)).collect();
    assert_eq!(r1, vec![(ActionSpace::Logging, 2), (ActionSpace::Excavation, 1), (ActionSpace::Supplies, 1)]);
    assert!(approx(sp.rounds[0].spaces[0].share, 0.5) && approx(sp.rounds[0].spaces[1].share, 0.25));
    let r2: Vec<ActionSpace> = sp.rounds[1].spaces.iter().map(|c| c.space).collect();
    assert_eq!(
        (sp.rounds[1].round, sp.rounds[1].placements, r2),
        (2, 2, vec![ActionSpace::Logging, ActionSpace::Growth])
    );
    common::assert_all(&s, &tiny(), &StatsFilter::all(), "tiny");
}

#[test]
fn tiny_corpus_filters() {
    let s = Stats::from_corpus(&tiny()).unwrap();
    let n = |f: StatsFilter| s.scores(&f, 10).unwrap().player_games;
    assert_eq!(n(StatsFilter::all().tournament("T")), 5);
    assert_eq!(n(StatsFilter::all().tournament("U")), 0);
    assert_eq!(n(StatsFilter::all().player_count(2)), 4);
    assert_eq!(n(StatsFilter::all().furnishing_set(FurnishingSet::Introductory)), 2);
    // Game 2 has no date: any bound excludes it.
    assert_eq!(n(StatsFilter::all().played_from("2024-01-15")), 3);
    assert_eq!(n(StatsFilter::all().played_until("2024-01-15")), 2);
    assert_eq!(n(StatsFilter::all().played_from("2000-01-01")), 5);
    // The bound is an instant: 12:00+02:00 is 10:00Z, so game 1 is in (from is inclusive)...
    assert_eq!(n(StatsFilter::all().played_from("2024-01-10T12:00:00+02:00").played_until("2024-01-11")), 2);
    // ...and until is exclusive.
    assert_eq!(n(StatsFilter::all().played_until("2024-01-10T10:00:00Z")), 0);
    let f = StatsFilter::all().tournament("T").player_count(3);
    common::assert_all(&s, &tiny(), &f, "T 3p");
    match s.scores(&StatsFilter::all().played_from("last tuesday"), 10) {
        Err(AnalyticsError::BadFilter(_)) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_games() {
    for s in [Stats::new().unwrap(), Stats::from_corpus(&Corpus::new()).unwrap()] {
        let f = StatsFilter::all();
        let all = s.all(&f).unwrap();
        assert_eq!(all.furnishings.player_games, 0);
        assert_eq!(all.furnishings.tiles.len(), 48);
        assert!(all
            .furnishings
            .tiles
            .iter()
            .all(|t| t.built == 0 && t.win_rate_built.n == 0 && t.mean_score_built.is_none()));
        assert!(all.weapons.by_class.iter().all(|c| c.stats.win_rate.n == 0 && c.stats.mean_score.is_none()));
        assert!(all.weapons.by_max_strength.is_empty());
        assert_eq!(all.weapons.loot.len(), 23);
        assert!(
            all.seats.by_seat.is_empty()
                && all.seats.first_player.is_empty()
                && all.seats.first_player_overall.is_none()
        );
        assert_eq!((all.scores.player_games, all.scores.quantiles, all.scores.mean), (0, None, None));
        assert!(all.scores.histogram.is_empty());
        assert!(all.spaces.rounds.is_empty());
        // A filter on an empty corpus too.
        let none = s.all(&StatsFilter::all().player_count(3).played_from("2024-01-01")).unwrap();
        assert_eq!(none.scores.player_games, 0);
        common::assert_all(&s, &Corpus::new(), &f, "empty");
    }
}

#[test]
fn filter_selecting_nothing_on_a_corpus() {
    let s = Stats::from_corpus(&tiny()).unwrap();
    let f = StatsFilter::all().player_count(6);
    let all = s.all(&f).unwrap();
    assert_eq!((all.furnishings.player_games, all.scores.player_games, all.spaces.placements), (0, 0, 0));
    common::assert_all(&s, &tiny(), &f, "6p");
}

#[test]
fn all_winners() {
    // Every game a tie: everyone wins.
    let mut c = tiny();
    for p in &mut c.player_games {
        p.winner = true;
        p.rank = 1;
    }
    let s = Stats::from_corpus(&c).unwrap();
    let f = s.furnishings(&StatsFilter::all()).unwrap();
    let carp = f.tile(Furnishing::Carpenter).unwrap();
    assert_eq!(
        (carp.win_rate_built.rate, carp.win_rate_not_built.rate, carp.win_rate_difference),
        (1.0, 1.0, Some(0.0))
    );
    assert!(approx(carp.win_rate_built.ci_high, 1.0));
    let w = s.weapons(&StatsFilter::all()).unwrap();
    for l in &w.loot {
        assert_eq!((l.others.n, l.others.rate), (0, 0.0));
        assert_eq!(l.winners.n, 7);
    }
    let seats = s.seats(&StatsFilter::all()).unwrap();
    assert!(seats.by_seat.iter().all(|r| r.win_rate.rate == 1.0));
    common::assert_all(&s, &c, &StatsFilter::all(), "all winners");
}

#[test]
fn repeated_space_uses_are_counted() {
    // A space recorded twice in a round of a game (an imitation stored as a use of the copied
    // space) counts twice.
    let mut c = tiny();
    c.spaces.push(space(1, 1, 1, ActionSpace::Logging));
    c.spaces.push(space(2, 0, 1, ActionSpace::Logging));
    c.spaces.push(space(2, 0, 1, ActionSpace::Logging));
    let s = Stats::from_corpus(&c).unwrap();
    let sp = s.spaces(&StatsFilter::all()).unwrap();
    assert_eq!(sp.placements, 9);
    assert_eq!((sp.rounds[0].spaces[0].space, sp.rounds[0].spaces[0].count), (ActionSpace::Logging, 5));
    for f in [
        StatsFilter::all(),
        StatsFilter::all().tournament("T"),
        StatsFilter::all().furnishing_set(FurnishingSet::Introductory),
    ] {
        common::assert_spaces(&s.spaces(&f).unwrap(), &common::spaces(&c, &f), "repeated");
    }
    let t = s.spaces(&StatsFilter::all().tournament("T")).unwrap();
    assert_eq!((t.placements, t.rounds[0].spaces[0].count), (6, 2));
}

#[test]
fn widely_spread_scores() {
    // Scores millions of points apart are counted exactly too (not in an array).
    let mut c = tiny();
    c.player_games[0].total = 3_000_000;
    c.player_games[6].total = -1_000_001;
    let s = Stats::from_corpus(&c).unwrap();
    for f in [StatsFilter::all(), StatsFilter::all().played_from("2024-01-10T10:00:00Z")] {
        common::assert_scores(&s.scores(&f, 1_000_000).unwrap(), &common::scores(&c, &f, 1_000_000), "spread");
    }
    let sc = s.scores(&StatsFilter::all(), 1_000_000).unwrap();
    assert_eq!((sc.min, sc.max, sc.histogram.len()), (Some(-1_000_001), Some(3_000_000), 6));
}

#[test]
fn loot_and_space_ids_round_trip() {
    for (i, item) in LOOT_ITEMS.iter().enumerate() {
        assert_eq!(*item as usize, i);
    }
    for (i, space) in ActionSpace::ALL.iter().enumerate() {
        assert_eq!(*space as usize, i);
    }
    assert_eq!(ActionSpace::ALL.len(), 39, "(round, space) keys pack the space in 6 bits");
}

// ---- input checks ----

fn rejects(c: &Corpus, what: &str) {
    let mut s = Stats::from_corpus(&tiny()).unwrap();
    let before = s.player_games();
    match s.add_games(c) {
        Err(AnalyticsError::InvalidInput(m)) => assert!(m.contains(what), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!((s.player_games(), s.generation()), (before, 1), "nothing added");
}

fn one_game(id: i64) -> Corpus {
    let mut c = tiny();
    c.player_games.retain(|p| p.game_id == 3);
    c.tiles.retain(|t| t.game_id == 3);
    c.loot.clear();
    c.spaces.clear();
    for p in &mut c.player_games {
        p.game_id = id;
    }
    for t in &mut c.tiles {
        t.game_id = id;
    }
    c
}

#[test]
fn bad_batches_are_rejected_whole() {
    rejects(&one_game(1), "already added");
    let mut c = one_game(10);
    c.player_games.pop();
    rejects(&c, "not every seat");
    let mut c = one_game(10);
    c.player_games[1].seat = 0;
    rejects(&c, "given twice");
    let mut c = one_game(10);
    c.player_games[2].seat = 3;
    rejects(&c, "seat 3 with 3 players");
    let mut c = one_game(10);
    c.player_games[0].tournament = None;
    rejects(&c, "disagree");
    let mut c = one_game(10);
    c.tiles.push(tile(11, 0, Furnishing::Carpenter, 3));
    rejects(&c, "no player-game row");
    let mut c = one_game(10);
    c.tiles.push(tile(10, 0, Furnishing::Carpenter, 13));
    rejects(&c, "round 13");
    let mut c = one_game(10);
    c.spaces.push(space(10, 0, 0, ActionSpace::Logging));
    rejects(&c, "round 0");
    let mut c = one_game(10);
    for p in &mut c.player_games {
        p.furnishing_set = FurnishingSet::Introductory;
    }
    c.tiles.push(tile(10, 2, Furnishing::Miner, 3));
    rejects(&c, "not in the introductory set");
    let mut c = one_game(10);
    for p in &mut c.player_games {
        p.player_count = 8;
    }
    rejects(&c, "not 1-7");
    // Several faults: the first in `Corpus::validate`'s order (tiles, then spaces, then a game
    // added before) is the one reported, though tiles and spaces are checked side by side.
    let mut c = one_game(1);
    c.spaces.push(space(1, 0, 0, ActionSpace::Logging));
    c.tiles.push(tile(1, 0, Furnishing::Carpenter, 13));
    assert!(c.validate().unwrap_err().to_string().contains("round 13"));
    rejects(&c, "round 13");
    c.tiles.pop();
    rejects(&c, "round 0");
    // A good batch after the bad ones is still accepted.
    let mut s = Stats::from_corpus(&tiny()).unwrap();
    s.add_games(&one_game(10)).unwrap();
    assert_eq!((s.games(), s.player_games()), (4, 10));
}

// ---- freshness ----

/// The corpus split into batches of whole games, of sizes 1, 2, 3, ... games.
fn batches(c: &Corpus) -> Vec<Corpus> {
    let mut by_game: BTreeMap<i64, Corpus> = BTreeMap::new();
    for p in &c.player_games {
        by_game.entry(p.game_id).or_default().player_games.push(p.clone());
    }
    for t in &c.tiles {
        by_game.entry(t.game_id).or_default().tiles.push(*t);
    }
    for l in &c.loot {
        by_game.entry(l.game_id).or_default().loot.push(*l);
    }
    for s in &c.spaces {
        by_game.entry(s.game_id).or_default().spaces.push(*s);
    }
    let mut out = Vec::new();
    let mut games = by_game.into_values();
    let mut size = 1;
    loop {
        let mut batch = Corpus::new();
        for _ in 0..size {
            match games.next() {
                Some(g) => batch.extend(g),
                None => break,
            }
        }
        if batch.player_games.is_empty() {
            return out;
        }
        out.push(batch);
        size = size % 7 + 1;
    }
}

#[test]
fn incremental_appends_equal_a_full_build() {
    let corpus = synthetic::corpus(Options::new(1500, 99));
    let parts = batches(&corpus);
    assert!(parts.len() > 100);
    let mut s = Stats::new().unwrap();
    let mut so_far = Corpus::new();
    let f = StatsFilter::all();
    for (i, part) in parts.into_iter().enumerate() {
        s.add_games(&part).unwrap();
        so_far.extend(part);
        // Query now and then between appends, so caches are filled and must be invalidated.
        if i % 40 == 0 {
            common::assert_all(&s, &so_far, &f, &format!("after batch {i}"));
        }
    }
    assert_eq!(s.player_games(), corpus.player_games.len());
    for f in [
        StatsFilter::all(),
        StatsFilter::all().player_count(3),
        StatsFilter::all().tournament("League").played_from("2022-06-01"),
        // Bounds inside months: those months are counted from their rows.
        StatsFilter::all().played_from("2022-06-15T10:00:00+02:00").played_until("2023-02-03"),
    ] {
        common::assert_all(&s, &corpus, &f, "incremental");
        // And the same as building at once.
        let whole = Stats::from_corpus(&corpus).unwrap();
        assert_eq!(*whole.all(&f).unwrap().furnishings, *s.all(&f).unwrap().furnishings);
        assert_eq!(*whole.all(&f).unwrap().spaces, *s.all(&f).unwrap().spaces);
    }
}

#[test]
fn appends_invalidate_cached_results() {
    let mut s = Stats::from_corpus(&tiny()).unwrap();
    let f = StatsFilter::all();
    let before = s.scores(&f, 10).unwrap();
    assert!(Arc::ptr_eq(&before, &s.scores(&f, 10).unwrap()), "second query is served from the cache");
    assert_eq!(s.generation(), 1);
    s.add_games(&one_game(10)).unwrap();
    assert_eq!(s.generation(), 2);
    let after = s.scores(&f, 10).unwrap();
    assert_eq!((before.player_games, after.player_games), (7, 10), "old result kept, new one fresh");
    let mut grown = tiny();
    grown.extend(one_game(10));
    common::assert_all(&s, &grown, &f, "after append");
    s.clear_cache();
    assert!(!Arc::ptr_eq(&after, &s.scores(&f, 10).unwrap()));
    assert_eq!(*after, *s.scores(&f, 10).unwrap());
}

#[test]
fn stats_can_be_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Stats>();
    let s = Stats::from_corpus(&synthetic::corpus(Options::new(600, 5))).unwrap();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=4u8)
            .map(|p| {
                let s = &s;
                scope.spawn(move || s.all(&StatsFilter::all().player_count(p)).map(|a| a.scores.player_games))
            })
            .collect();
        let total: u64 = handles.into_iter().map(|h| h.join().unwrap().unwrap()).sum();
        assert!(total > 0);
    });
}
