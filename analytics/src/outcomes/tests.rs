//! The outcome statistics of a tiny corpus against values computed by hand.
//!
//! | game | source | seat | winner | total | a | b | k | margin |
//! |---|---|---|---|---|---|---|---|---|
//! | 1 | simulate:random | 0 | yes | 10 | 7 | 3 | 2 | 10 − 6 = 4 |
//! | 1 | | 1 | | 6 | 1 | 5 | 0 | −4 |
//! | 2 | club | 0 | | 5 | 5 | 0 | 2 | 5 − (11 + 8)/2 = −4.5 |
//! | 2 | | 1 | yes | 11 | 2 | 9 | 1 | 11 − 6.5 = 4.5 |
//! | 2 | | 2 | | 8 | 4 | 4 | 0 | 0 |
//! | 3 (solo) | club | 0 | yes | 20 | 20 | 0 | 3 | — |

use super::*;

fn player(seat: u8, winner: bool, total: i64, a: i64, b: i64, k: i64) -> PlayerOutcome {
    PlayerOutcome { seat, winner, total, rows: vec![("a".into(), a), ("b".into(), b)], counters: vec![("k".into(), k)] }
}

fn corpus() -> OutcomeCorpus {
    let mut c = OutcomeCorpus::new(&["a", "b"], &["k"]);
    let game = |game_id, source: &str, players| GameOutcome {
        game_id,
        source: Some(source.into()),
        synthetic: false,
        players,
    };
    c.add(&game(1, "simulate:random", vec![player(0, true, 10, 7, 3, 2), player(1, false, 6, 1, 5, 0)]));
    c.add(&game(
        2,
        "club",
        vec![player(0, false, 5, 5, 0, 2), player(1, true, 11, 2, 9, 1), player(2, false, 8, 4, 4, 0)],
    ));
    c.add(&game(3, "club", vec![player(0, true, 20, 20, 0, 3)]));
    c
}

/// Every game of the corpus, simulated or not (the hand-computed values count them all).
fn all() -> OutcomeFilter {
    OutcomeFilter { include_simulated: true, ..OutcomeFilter::default() }
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-6)
}

#[test]
fn filters_select_games_and_count_solo_games_apart() {
    let f = |min_players, source: Option<&str>, exclude: Option<&str>| OutcomeFilter {
        min_players,
        source: source.map(Into::into),
        exclude_source: exclude.map(Into::into),
        ..all()
    };
    // (filter, games, player-games, solo games)
    let cases = [
        (f(1, None, None), 2, 5, 1),
        (f(3, None, None), 1, 3, 0),
        (f(2, Some("simulate"), None), 1, 2, 0),
        (f(1, None, Some("simulate")), 1, 3, 1),
        (f(1, Some("nobody"), None), 0, 0, 0),
    ];
    let c = corpus();
    for (filter, games, player_games, solo) in cases {
        let r = c.report(&filter);
        assert_eq!((r.games, r.player_games, r.solo_games), (games, player_games, solo), "{filter:?}");
    }
    // By default simulated and real games are not mixed: game 1 (simulated) is left out, since
    // games 2 and 3 were played by people; a source condition or `include_simulated` keeps it.
    let r = c.report(&OutcomeFilter::default());
    assert_eq!((r.games, r.simulated_left_out, r.simulated_games), (1, 1, 0));
    assert_eq!(c.report(&all()).simulated_left_out, 0);
}

#[test]
fn counter_groups_have_win_rates_and_margins() {
    let r = corpus().report(&all());
    let k = &r.counters[0];
    assert_eq!((k.counter.as_str(), k.player_games), ("k", 5));
    let shape: Vec<_> = k.groups.iter().map(|g| (g.low, g.high, g.win_rate.successes, g.win_rate.n)).collect();
    assert_eq!(shape, [(0, Some(0), 0, 2), (1, Some(1), 1, 1), (2, Some(2), 1, 2)]);
    // k = 0: margins −4 and 0: mean −2, s = √8, half-width 1.959964·√8/√2 = 3.919928.
    let zero = k.groups[0].margin;
    assert!(close(zero.mean, -2.0) && close(zero.ci_low, -5.919928) && close(zero.ci_high, 1.919928), "{zero:?}");
    // k = 2: margins 4 and −4.5: mean −0.25, s = 6.010408, half-width 1.959964·4.25 = 8.329847.
    let two = k.groups[2].margin;
    assert!(close(two.mean, -0.25) && close(two.ci_low, -8.579847) && close(two.ci_high, 8.079847), "{two:?}");
    assert_eq!((k.groups[1].margin.mean, k.groups[1].margin.ci_low), (Some(4.5), None));
}

#[test]
fn main_sources_break_ties_by_printed_order() {
    let r = corpus().report(&all());
    let s: Vec<_> = r.main_sources.iter().map(|g| (g.row.as_str(), g.win_rate.successes, g.win_rate.n)).collect();
    // Seat 2 of game 2 has 4 and 4: its main source is `a`.
    assert_eq!(s, [("a", 1, 3), ("b", 1, 2)]);
    // 1 of 3: the Wilson interval (0.0615, 0.7923) of the published tables.
    let a = r.main_sources[0].win_rate;
    assert!((a.ci_low - 0.0615).abs() < 5e-5 && (a.ci_high - 0.7923).abs() < 5e-5, "{a:?}");
    assert!(close(r.main_sources[0].margin.mean, (4.0 - 4.5 + 0.0) / 3.0));
    assert!(close(r.main_sources[1].margin.mean, 0.25));
}

#[test]
fn row_points_of_winners_and_others() {
    let r = corpus().report(&all());
    let means: Vec<_> = r.rows.iter().map(|p| (p.row.as_str(), p.winners.mean, p.others.mean)).collect();
    assert_eq!(means[1], ("b", Some(6.0), Some(3.0)));
    assert_eq!((means[0].0, means[0].1), ("a", Some(4.5)));
    assert!(close(means[0].2, 10.0 / 3.0));
}

#[test]
fn seats_and_scores() {
    let r = corpus().report(&all());
    let seats: Vec<_> = r.seats.iter().map(|s| (s.player_count, s.seat, s.win_rate.successes, s.win_rate.n)).collect();
    assert_eq!(seats, [(2, 0, 1, 1), (2, 1, 0, 1), (3, 0, 0, 1), (3, 1, 1, 1), (3, 2, 0, 1)]);
    assert!((r.seats[2].expected - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!((r.scores.player_games, r.scores.mean, r.scores.min, r.scores.max), (5, Some(8.0), Some(5), Some(11)));
    assert_eq!(r.scores.quantiles.map(|q| q.p50), Some(8.0));
    let hist: Vec<_> = r.scores.histogram.iter().map(|b| (b.from, b.count)).collect();
    assert_eq!(hist, [(0, 3), (10, 2)]);
}

#[test]
fn players_without_a_counter_are_left_out_of_its_groups() {
    let mut c = OutcomeCorpus::new(&["a"], &["k"]);
    let p = |seat, winner, total| PlayerOutcome { seat, winner, total, rows: vec![], counters: vec![] };
    c.add(&GameOutcome { game_id: 1, source: None, synthetic: false, players: vec![p(0, true, 3), p(1, false, 2)] });
    let r = c.report(&all());
    assert_eq!((r.player_games, r.counters[0].player_games, r.main_sources.len()), (2, 0, 0));
    assert!(r.counters[0].groups.is_empty());
}

#[test]
fn absurd_totals_do_not_panic() {
    let mut c = OutcomeCorpus::new(&["a"], &["k"]);
    let p = |seat, winner, total| PlayerOutcome {
        seat,
        winner,
        total,
        rows: vec![("a".into(), total)],
        counters: vec![("k".into(), total)],
    };
    let players = vec![p(0, true, i64::MAX), p(1, false, i64::MIN), p(2, false, 0)];
    c.add(&GameOutcome { game_id: 1, source: None, synthetic: false, players });
    let r = c.report(&OutcomeFilter { bucket_width: 1, ..all() });
    assert_eq!((r.player_games, r.scores.histogram.len()), (3, 3), "only the non-empty buckets of a huge span");
    assert_eq!(r.counters[0].groups.len(), 3);
}
