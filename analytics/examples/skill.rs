//! How long the skill statistics take over 1,000,000 player-games (synthetic, see
//! `synthetic::skill_games`): rating every game from scratch, the incremental update of one
//! more game, and the raw and controlled effects of all 49 strategies — against the same run's
//! full recompute of the other statistics (`Stats::from_corpus`) over as many player-games.
//!
//! ```text
//! cargo run --release -p chronicle-analytics --example skill [-- PLAYER_GAMES]
//! ```

use std::time::Instant;

use chronicle_analytics::ratings::{RatedGame, RatedSeat, Ratings};
use chronicle_analytics::skill::Skill;
use chronicle_analytics::{synthetic, Stats};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let games = synthetic::skill_games(20_000, n, 7);
    let rated: Vec<RatedGame> = games
        .iter()
        .map(|g| RatedGame {
            game_id: g.game_id,
            played_at: g.played_at.clone(),
            seats: g.seats.iter().map(|s| RatedSeat { player: s.player.clone(), rank: s.rank }).collect(),
        })
        .collect();
    let seats: usize = games.iter().map(|g| g.seats.len()).sum();
    println!("{} games, {seats} player-games, 20,000 players", games.len());

    let corpus = synthetic::corpus(synthetic::Options { spaces: false, ..synthetic::Options::new(seats, 7) });
    let t = Instant::now();
    let stats = Stats::from_corpus(&corpus).expect("statistics");
    let baseline = t.elapsed().as_secs_f64();
    println!("baseline: Stats::from_corpus (no spaces)   {baseline:8.2} s   ({} games)", stats.games());

    let t = Instant::now();
    let (head, tail) = rated.split_at(rated.len() - 10_000);
    let mut ratings = Ratings::compute(head.to_vec());
    let recompute = t.elapsed().as_secs_f64();
    let mut per_game: Vec<f64> = tail
        .iter()
        .map(|g| {
            let t = Instant::now();
            ratings.add(g).expect("in order");
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    per_game.sort_by(f64::total_cmp);
    let pct = |q: f64| per_game[((per_game.len() - 1) as f64 * q).round() as usize];
    println!("ratings: recompute (all but 10,000 games) {recompute:8.2} s   {:.2}× baseline", recompute / baseline);
    println!("ratings: one more game                   p50 {:.1} µs   p99 {:.1} µs", pct(0.5), pct(0.99));

    let t = Instant::now();
    let skill = Skill::compute(&games);
    let all = t.elapsed().as_secs_f64();
    println!("skill: ratings + 49 strategies' effects  {all:8.2} s   {:.2}× baseline", all / baseline);
    let armed = skill.effects.last().expect("armed");
    println!(
        "  (armed: {} switchers, controlled win {:?})",
        armed.controlled.switchers,
        armed.controlled.win.map(|e| e.estimate)
    );
}
