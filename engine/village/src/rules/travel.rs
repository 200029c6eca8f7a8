//! Travel (`docs/rules/village.md` D.6, A.8, G.9, H.15): depart from the farm to a city next to the
//! village, or journey to an adjacent city; a first visit places a disc and gains the reward.

use super::council::take_from_supply;
use super::payment::{pay, Cost, Deaths};
use crate::components::{Node, Path};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc};
use crate::ids::{Cube, Good};
use crate::notation::{MemberRef, Reward, RewardChoice};

/// Discs per colour (A.1, H.15).
pub const DISCS: usize = 6;

/// The path's cost (S l.500): its time, wagons and cubes.
pub fn path_cost(path: &Path) -> Cost {
    Cost { cubes: path.cubes, time: u64::from(path.time), ..Cost::default() }.good(Good::Wagon, path.wagons)
}

pub fn travel(
    game: &mut Game,
    p: usize,
    member: &MemberRef,
    to: &str,
    reward: Option<&RewardChoice>,
    coin_for: &[Cube],
) -> RuleResult {
    // What the move needs of the map, read before the game changes: no copy of the map.
    let (loc, city, cost, kind) = {
        let map = game.components().travel()?;
        let loc = game.member(p, member)?;
        let Some(from) = Game::node(loc) else {
            return fail(ErrorCode::MemberNotFound, "a traveller starts on the farm or on a city (RULES.md D.6)");
        };
        let Some(city) = map.city(to) else {
            return fail(ErrorCode::UnknownId, format!("city `{to}` is not on the travel map"));
        };
        let Some(path) = map.path(from, Node::City(city)) else {
            let origin = if from == Node::Village { "the village" } else { "the member's city" };
            return fail(ErrorCode::NotAdjacent, format!("`{to}` is not one path away from {origin} (RULES.md G.9.1)"));
        };
        (loc, city, path_cost(path), map.cities()[city].reward)
    };
    pay(game, p, &cost, coin_for, Deaths::EndOfTurn)?;
    game.players[p].relocate(member.gen, loc, Loc::City(city));
    let gains = !game.players[p].discs.contains(&city) && game.players[p].discs.len() < DISCS;
    match (gains, kind, reward) {
        (false, _, Some(_)) | (true, Reward::Prestige | Reward::Coin, Some(_)) => {
            return fail(ErrorCode::BadReward, "no `reward` choice is made here (RULES.md G.9.3)")
        }
        (true, Reward::Cubes, None) => {
            return fail(
                ErrorCode::BadReward,
                "this city gives 2 influence cubes: name them in `reward.cubes` (RULES.md G.9.3)",
            )
        }
        (false, _, None) => {}
        (true, _, _) => {
            game.players[p].discs.push(city);
            let round = game.round;
            game.players[p].first_travel.get_or_insert(round);
            match (kind, reward) {
                (Reward::Prestige, _) => game.players[p].track.travel += 3,
                (Reward::Coin, _) => game.players[p].coins += 1,
                (Reward::Cubes, Some(r)) => {
                    if r.cubes.iter().any(|c| !c.is_influence()) {
                        return fail(ErrorCode::BadReward, "a city's cubes are influence colours (RULES.md H.17)");
                    }
                    take_from_supply(game, p, &r.cubes, ErrorCode::BadReward)?;
                }
                (Reward::Cubes, None) => {}
            }
        }
    }
    Ok(())
}
