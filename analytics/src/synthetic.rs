//! A deterministic synthetic corpus for tests and benchmarks (not real games: shapes only).
//!
//! Seeded with `chronicle_caverna::shuffle::SplitMix64`, so the same options give the same rows
//! on every machine. The shapes follow real play loosely: mostly 2–4 players, some
//! introductory-set and tournament games, dates over four years (a few missing, some with a
//! UTC offset), 3–10 distinct tiles per player (plus repeated dwellings) built in rising rounds,
//! a minority of armed players with expeditions and loot, 2 to 5 dwarfs placed on distinct
//! spaces every round, and scores that depend on a hidden skill, the tiles and the weapons, so
//! that the statistics have something to find. Ties for the win occur.

use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::shuffle::SplitMix64;

use crate::calendar::civil_from_days;
use crate::input::{Corpus, FurnishingSet, LootTaken, PlayerGame, SpaceUse, TileBuilt};
use crate::weapons::LOOT_ITEMS;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Stop once at least this many player-games exist (the last game may be cut to fit).
    pub player_games: usize,
    pub seed: u64,
    /// Generate action-space uses (about 40 per player-game).
    pub spaces: bool,
    /// The first game id.
    pub first_game_id: i64,
}

impl Options {
    pub fn new(player_games: usize, seed: u64) -> Options {
        Options { player_games, seed, spaces: true, first_game_id: 1 }
    }
}

pub const TOURNAMENTS: [&str; 3] = ["Spring Open", "Winter Cup", "League"];

fn unit(r: &mut SplitMix64) -> f64 {
    (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn chance(r: &mut SplitMix64, p: f64) -> bool {
    unit(r) < p
}

fn pick_weighted(r: &mut SplitMix64, weights: &[u32]) -> usize {
    let total: u32 = weights.iter().sum();
    let mut x = r.below(total.max(1) as usize) as u32;
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    weights.len().saturating_sub(1)
}

/// `YYYY-MM-DDTHH:MM:SS` of seconds since the epoch (UTC).
fn format_utc(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// 2021-01-01T00:00:00Z.
const START: i64 = 1_609_459_200;

/// A synthetic corpus.
/// Uploaders of the synthetic games, by game id (no random draw, so the other rows do not
/// depend on them).
const UPLOADERS: [&str; 3] = ["club-a", "club-b", "club-c"];

/// One game in four is labelled as simulated (`meta.source`), by game id.
fn synthetic_source(game_id: i64) -> Option<String> {
    (game_id.rem_euclid(4) == 0).then(|| "simulate:random".to_owned())
}

/// One of 5,000 synthetic players for a seat, by game id and seat (no random draw).
fn synthetic_player(game_id: i64, seat: u8) -> String {
    format!("name:synthetic {}", (game_id * 7 + i64::from(seat) * 1_009).rem_euclid(5_000))
}

pub fn corpus(opts: Options) -> Corpus {
    let mut r = SplitMix64::new(opts.seed);
    let mut c = Corpus::new();
    let tiles: Vec<Furnishing> = Furnishing::all().collect();
    let mut game_id = opts.first_game_id;
    while c.player_games.len() < opts.player_games {
        let left = opts.player_games - c.player_games.len();
        let pc = (pick_weighted(&mut r, &[5, 35, 30, 20, 6, 3, 1]) + 1).min(left);
        let pc_u8 = pc as u8;
        let set = if chance(&mut r, 0.15) { FurnishingSet::Introductory } else { FurnishingSet::Full };
        let tournament = chance(&mut r, 0.2).then(|| TOURNAMENTS[r.below(TOURNAMENTS.len())].to_owned());
        let played_at = if chance(&mut r, 0.03) {
            None
        } else {
            let at = START + r.below(4 * 365 * 86_400) as i64;
            Some(match r.below(10) {
                0 => format_utc(at)[..10].to_owned(),
                1..=3 => format!("{}+02:00", format_utc(at + 7200)),
                _ => format!("{}Z", format_utc(at)),
            })
        };
        // Tiles: each unique tile goes to at most one player of the game.
        let mut pool: Vec<Furnishing> =
            tiles.iter().copied().filter(|t| set.contains(*t) && *t != Furnishing::Dwelling).collect();
        r.shuffle(&mut pool);
        let mut players = Vec::with_capacity(pc);
        for seat in 0..pc {
            let skill = unit(&mut r);
            let armed = chance(&mut r, 0.3 + 0.4 * skill);
            let strength = armed.then(|| (1 + r.below(8) + r.below(7)) as u8);
            let expeditions = match strength {
                None => 0,
                Some(s) => r.below(usize::from(s) / 2 + 3) as u32,
            };
            let mut score = 15.0 + 60.0 * skill + (unit(&mut r) - 0.5) * 40.0;
            if let Some(s) = strength {
                score += f64::from(s) * 0.8 - 3.0;
            }
            let n_tiles = 3 + r.below(5) + (skill * 3.0) as usize;
            let mut round = 1 + r.below(3) as u8;
            let mut built = Vec::new();
            for _ in 0..n_tiles {
                let Some(tile) = pool.pop() else { break };
                round = (round + r.below(3) as u8).min(12);
                score += (tile as usize % 7) as f64 - 2.5;
                built.push((tile, round));
            }
            for _ in 0..r.below(3) {
                built.push((Furnishing::Dwelling, 2 + r.below(11) as u8));
            }
            let mut loot = Vec::new();
            for _ in 0..expeditions {
                let k = 1 + r.below(usize::from(strength.unwrap_or(1)) / 4 + 1);
                for _ in 0..k {
                    let item = LOOT_ITEMS[r.below(LOOT_ITEMS.len())];
                    score += (item as usize % 5) as f64 * 0.4;
                    loot.push(item);
                }
            }
            players.push((seat as u8, score.round() as i64, strength, expeditions, built, loot));
        }
        let best = players.iter().map(|p| p.1).max().unwrap_or(0);
        for (seat, total, strength, expeditions, built, loot) in &players {
            let better = players.iter().filter(|o| o.1 > *total).count();
            c.player_games.push(PlayerGame {
                game_id,
                player_count: pc_u8,
                furnishing_set: set,
                tournament: tournament.clone(),
                source: synthetic_source(game_id),
                uploader: Some(UPLOADERS[game_id.rem_euclid(UPLOADERS.len() as i64) as usize].to_owned()),
                player: Some(synthetic_player(game_id, *seat)),
                played_at: played_at.clone(),
                seat: *seat,
                total: *total,
                rank: (better + 1) as u8,
                winner: *total == best,
                max_strength: *strength,
                // A round from the game and seat (not drawn, so that the generator's stream
                // and every figure drawn from it stay as they were).
                first_armed: strength
                    .map(|s| 1 + ((game_id.unsigned_abs() + u64::from(*seat) * 7 + u64::from(s)) % 12) as u8),
                first_expedition: (*expeditions > 0)
                    .then(|| 2 + ((game_id.unsigned_abs() + u64::from(*seat) * 5) % 11) as u8),
                expeditions: *expeditions,
            });
            for &(tile, round) in built {
                c.tiles.push(TileBuilt { game_id, seat: *seat, tile, round });
            }
            for &item in loot {
                c.loot.push(LootTaken { game_id, seat: *seat, item });
            }
        }
        if opts.spaces {
            let base = (10 + 2 * pc).min(26);
            let mut dwarfs = vec![2usize; pc];
            for round in 1..=12u8 {
                let mut spaces: Vec<ActionSpace> = ActionSpace::ALL[..base].to_vec();
                spaces.extend_from_slice(&ActionSpace::ALL[26..26 + usize::from(round).min(13)]);
                r.shuffle(&mut spaces);
                for d in dwarfs.iter_mut() {
                    if *d < 5 && chance(&mut r, 0.3) {
                        *d += 1;
                    }
                }
                let most = dwarfs.iter().copied().max().unwrap_or(0);
                for turn in 0..most {
                    for (seat, &d) in dwarfs.iter().enumerate() {
                        if turn < d {
                            if let Some(space) = spaces.pop() {
                                c.spaces.push(SpaceUse { game_id, seat: seat as u8, round, space });
                            }
                        }
                    }
                }
            }
        }
        game_id += 1;
    }
    c
}

/// Synthetic games for the skill statistics (not real games): `players` players with a hidden
/// skill each play `player_games` seats' worth of 2- to 5-player games; each seat builds 4–8
/// random furnishing tiles and is armed with probability 0.4; ranks follow the skill plus
/// logistic noise. Deterministic from `seed`; the game ids count from 1 and every game is dated
/// in play order.
pub fn skill_games(players: usize, player_games: usize, seed: u64) -> Vec<crate::skill::SkillGame> {
    use crate::skill::{SkillGame, SkillSeat};
    let mut r = SplitMix64::new(seed);
    let skill: Vec<f64> = (0..players.max(2)).map(|_| unit(&mut r) * 3.0).collect();
    let tiles: Vec<Furnishing> = Furnishing::all().collect();
    let mut games = Vec::new();
    let mut seats_so_far = 0;
    while seats_so_far < player_games {
        let n = 2 + r.below(4);
        let mut who: Vec<usize> = Vec::with_capacity(n);
        while who.len() < n.min(skill.len()) {
            let p = r.below(skill.len());
            if !who.contains(&p) {
                who.push(p);
            }
        }
        let perf: Vec<f64> = who
            .iter()
            .map(|&p| {
                let u = unit(&mut r).clamp(1e-12, 1.0 - 1e-12);
                skill[p] + (u / (1.0 - u)).ln()
            })
            .collect();
        let seats = who
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let rank = 1 + perf.iter().filter(|&&o| o > perf[i]).count() as u8;
                let mut built = Vec::new();
                for _ in 0..4 + r.below(5) {
                    let t = tiles[r.below(tiles.len())];
                    if !built.contains(&t) {
                        built.push(t);
                    }
                }
                SkillSeat {
                    player: format!("name:synthetic {p}"),
                    name: format!("synthetic {p}"),
                    rank,
                    winner: rank == 1,
                    total: (40.0 + 12.0 * perf[i]).round() as i64,
                    tiles: built,
                    armed: chance(&mut r, 0.4),
                    features: crate::skill::SeatFeatures::default(),
                }
            })
            .collect::<Vec<_>>();
        seats_so_far += seats.len();
        let id = games.len() as i64 + 1;
        // Ten minutes apart from 2026-01-01T00:00:00Z.
        games.push(SkillGame {
            game_id: id,
            played_at: Some(format!("{}Z", format_utc(1_767_225_600 + id * 600))),
            source: None,
            synthetic_data: false,
            seats,
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::format_utc;

    #[test]
    fn formats_utc() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00");
        assert_eq!(format_utc(951_782_400 + 3661), "2000-02-29T01:01:01");
    }
}
