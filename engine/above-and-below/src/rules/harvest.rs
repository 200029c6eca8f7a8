//! Harvest (`docs/rules/above-and-below.md` D.4): for each villager used, at most one goods token from an own house
//! or outpost that holds one; fewer tokens than villagers is legal (H.20).

use crate::error::{ensure, ErrorCode, RuleResult};
use crate::game::Game;
use crate::ids::{same_id, Item, VState};
use crate::notation::CatDie;

use super::villagers;

pub fn harvest(game: &mut Game, p: usize, ids: &[String], take: &[String], cat_rolls: &[CatDie]) -> RuleResult {
    ensure(!ids.is_empty(), ErrorCode::ActionVillagers, || "Harvest uses at least one villager (D.4.1)".into())?;
    villagers::check_ready(game, p, ids)?;
    ensure(take.len() <= ids.len(), ErrorCode::HarvestCount, || {
        format!("{} goods taken with {} villagers: at most one each (D.4.2)", take.len(), ids.len())
    })?;
    villagers::cat_rolls(game, ids, cat_rolls)?;
    villagers::set_state(game, p, ids, VState::Exhausted);
    for card in take {
        let pl = &mut game.players[p];
        let token = pl.cards_mut().find(|c| same_id(&c.id, card) && !c.tokens.is_empty()).map(|c| c.tokens.remove(0));
        let Some(good) = token else {
            return crate::error::fail(
                ErrorCode::HarvestEmpty,
                format!("{card} is not an own card holding a goods token (D.4.2)"),
            );
        };
        *pl.reserve_mut(Item::Good(good)) += 1;
    }
    Ok(())
}
