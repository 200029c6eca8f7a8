//! A fixed-seed slice of the fuzzing campaign, small enough for a debug build in CI: mutated
//! logs of every game (structural and byte-level mutations of the fixtures, the example and
//! bot games) never make the replay or its report panic, and no case takes a second. The mix
//! of outcomes, overall and per game, shows that the mutations reach every stage of every
//! engine's replay, so a clean run means something.

use std::sync::OnceLock;

use chronicle_fuzz::{generate, run_on, Config, Corpus, Outcome, GAMES};

/// Cases of the CI slice, sized for a debug build on 2 cores (timing in docs/reliability.md).
const SLICE_CASES: u64 = 6_000;
const SLICE_SEED: u64 = 20_260_601;

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| Corpus::load(std::path::Path::new(chronicle_fuzz::corpus::DEFAULT_ROOT)).expect("corpus"))
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[test]
fn mutated_logs_never_panic_or_hang_fixed_seed_slice() {
    let summary = run_on(corpus(), &Config::new(SLICE_CASES, SLICE_SEED, threads()));
    let report = summary.json();
    eprintln!("{report}");
    assert_eq!(summary.cases, SLICE_CASES, "{report}");
    assert_eq!(summary.panics, 0, "panics: {report}");
    assert_eq!(summary.hangs, 0, "hangs (> 1 s): {report}");
    // Not vacuous: the mutations reach the parser, the engine's checks and the end of a game.
    let share = |o: Outcome| summary.outcome(o) as f64 / SLICE_CASES as f64;
    assert!(share(Outcome::Invalid) > 0.3, "too few invalid logs: {report}");
    assert!(share(Outcome::Unparseable) > 0.02, "too few unparseable logs: {report}");
    assert!(share(Outcome::Complete) + share(Outcome::Incomplete) > 0.02, "too few still-valid logs: {report}");
    assert!(summary.outcome(Outcome::Complete) > 0, "no complete game left: {report}");
    assert!(summary.error_codes.len() >= 15, "few distinct error codes: {report}");
    assert!(summary.operators.iter().all(|&n| n > 0), "an operator never ran: {report}");
    // Every game is fuzzed: its cases reach its engine's checks and some stay legal.
    for game in GAMES {
        let o = summary.game_outcomes(game.id());
        let at = |x: Outcome| o[x.index()];
        assert!(at(Outcome::Invalid) > 100, "{game}: too few invalid logs: {report}");
        assert!(at(Outcome::Complete) + at(Outcome::Incomplete) > 10, "{game}: too few still-valid logs: {report}");
    }
}

#[test]
fn the_same_seed_gives_the_same_mutated_bytes() {
    let corpus = corpus();
    for index in [0, 1, 17, 999, 123_456] {
        let (a, b) = (generate(corpus, 5, index), generate(corpus, 5, index));
        assert_eq!(a, b, "case {index}");
    }
    let differing = (0..50).filter(|&i| generate(corpus, 5, i).bytes != generate(corpus, 6, i).bytes).count();
    assert!(differing >= 45, "seeds 5 and 6 gave {} equal cases of 50", 50 - differing);
}

#[test]
fn campaign_counts_do_not_depend_on_the_thread_count() {
    let one = run_on(corpus(), &Config::new(300, 9, 1));
    let three = run_on(corpus(), &Config::new(300, 9, 3));
    assert_eq!(one.outcomes, three.outcomes);
    assert_eq!(one.error_codes, three.error_codes);
    assert_eq!(one.operators, three.operators);
}
