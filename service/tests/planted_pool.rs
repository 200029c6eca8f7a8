//! The pool of named bot players makes strategy and skill separable (docs/statistics.md,
//! "Simulations that can be analysed"): on a corpus it simulates, the controlled effect of a
//! planted tile recovers what the tile really does for the players who build it, while the
//! raw difference between builders and the others, which mixes in who builds it, does not.
//!
//! The truth is measured apart, by paired games: the same seed and seats played twice, once as
//! planned (one strategy seat keen on the tile) and once with that seat averse to it; the keen
//! seat's change of score margin, over the pairs in which it built the tile, is what building
//! the tile did for it.

use chronicle_analytics::skill::{Skill, SkillGame, Strategy};
use chronicle_caverna::bots::planted_tile;
use chronicle_game::pool::{pool, seating, Leaning, SeatPlan};
use chronicle_game::{rng::game_seed, GameKind, Simulation};
use chronicle_ingest::games::{engine, record_of};
use chronicle_service::stats_corpus::skill_game;

const TILE: &str = "Weaving parlor";
const PLAYERS: u8 = 4;

fn play(seed: u64, seats: &[SeatPlan]) -> SkillGame {
    let choice = Simulation { seats: Some(seats), ..Simulation::default() };
    let log = engine(GameKind::Caverna).simulate_with(seed, PLAYERS, &choice).expect("a complete game").to_string();
    let record = record_of(log.as_bytes(), None);
    skill_game(seed as i64, &record).expect("a stored game's facts").expect("a complete Caverna game").1
}

fn margin(g: &SkillGame, seat: usize) -> f64 {
    let n = g.seats.len() as f64;
    let all: i64 = g.seats.iter().map(|s| s.total).sum();
    g.seats[seat].total as f64 - (all - g.seats[seat].total) as f64 / (n - 1.0)
}

/// Runs `f` over `0..n` on two threads, results in order.
fn par<T: Send>(n: u64, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let half = n / 2;
    std::thread::scope(|s| {
        let a = s.spawn(|| (0..half).map(&f).collect::<Vec<T>>());
        let mut b: Vec<T> = (half..n).map(&f).collect();
        let mut out = a.join().expect("no panic");
        out.append(&mut b);
        out
    })
}

fn mean_and_error(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn the_controlled_effect_recovers_a_planted_tile_while_the_raw_difference_is_biased() {
    let members = pool(chronicle_game::GameKind::Caverna.spec().pool_bots, 24);
    let tile = planted_tile(TILE).expect("a printed tile");
    let seats = |i: u64| seating(&members, usize::from(PLAYERS), game_seed(35, i), Some(TILE)).expect("seats");
    // The corpus.
    let games: Vec<SkillGame> = par(CORPUS, |i| play(game_seed(35, i), &seats(i)));
    let skill = Skill::compute(&games);
    let effect = skill.effects.iter().find(|e| e.strategy == Strategy::Tile(tile)).expect("the tile's effect");
    let controlled = effect.controlled.margin.unwrap_or_else(|| panic!("estimable: {:?}", effect.controlled));
    // The raw difference of margins between builders and the others.
    let (mut built, mut not) = (Vec::new(), Vec::new());
    for g in &games {
        for (s, seat) in g.seats.iter().enumerate() {
            if seat.tiles.contains(&tile) {
                built.push(margin(g, s))
            } else {
                not.push(margin(g, s))
            }
        }
    }
    let raw = mean_and_error(&built).0 - mean_and_error(&not).0;
    // The truth, from paired games.
    let pairs: Vec<Option<f64>> = par(PAIRS, |i| {
        let i = CORPUS + i;
        let planned = seats(i);
        let keen = planned.iter().position(|s| s.plant.as_ref().is_some_and(|(_, l)| *l == Leaning::Keen))?;
        let with = play(game_seed(35, i), &planned);
        if !with.seats[keen].tiles.contains(&tile) {
            return None;
        }
        let mut averse = planned.clone();
        averse[keen].plant = Some((TILE.to_owned(), Leaning::Averse));
        let without = play(game_seed(35, i), &averse);
        Some(margin(&with, keen) - margin(&without, keen))
    });
    let pairs: Vec<f64> = pairs.into_iter().flatten().collect();
    let (truth, truth_error) = mean_and_error(&pairs);
    let report = format!(
        "controlled {:.2} ({:.2} to {:.2}, se {:.2}, {} switchers, {} informing games), raw {raw:.2}, truth {truth:.2} ± {truth_error:.2} over {} pairs",
        controlled.estimate,
        controlled.ci_low,
        controlled.ci_high,
        controlled.std_error,
        effect.controlled.switchers,
        effect.controlled.informing_games,
        pairs.len()
    );
    eprintln!("{report}");
    assert!(effect.controlled.not_enough_data().is_none(), "the default support is met: {report}");
    // The common strategies are estimable too: being armed, and the tiles built often.
    let estimable: Vec<String> = skill
        .effects
        .iter()
        .filter(|e| e.controlled.not_enough_data().is_none() && e.controlled.margin.is_some())
        .map(|e| e.strategy.id())
        .collect();
    eprintln!("estimable: {} of {}: {estimable:?}", estimable.len(), skill.effects.len());
    assert!(estimable.contains(&"armed".to_owned()), "{estimable:?}");
    assert!(estimable.len() >= ESTIMABLE, "{estimable:?}");
    let both = (controlled.std_error.powi(2) + truth_error.powi(2)).sqrt();
    assert!((controlled.estimate - truth).abs() <= 1.96 * both, "recovered: {report}");
    assert!((raw - truth).abs() > 1.96 * both, "the raw difference is biased: {report}");
}

const CORPUS: u64 = 400;
const PAIRS: u64 = 150;
/// Strategies (of 49) with a controlled effect on this corpus, at least.
const ESTIMABLE: usize = 10;
