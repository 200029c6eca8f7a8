//! Labor (`docs/rules/above-and-below.md` D.7): one coin per villager used; the round's first Labor also takes the
//! cider on the board.

use crate::error::{ensure, ErrorCode, RuleResult};
use crate::game::Game;
use crate::ids::VState;
use crate::notation::CatDie;

use super::villagers;

pub fn labor(game: &mut Game, p: usize, ids: &[String], cat_rolls: &[CatDie]) -> RuleResult {
    ensure(!ids.is_empty(), ErrorCode::ActionVillagers, || "Labor uses at least one villager (D.7.1)".into())?;
    villagers::check_ready(game, p, ids)?;
    villagers::cat_rolls(game, ids, cat_rolls)?;
    villagers::set_state(game, p, ids, VState::Exhausted);
    let pl = &mut game.players[p];
    pl.coins = pl.coins.saturating_add(ids.len() as u64);
    // D.7.2: the board's cider goes to the first Labor of the round (F.3 puts it back).
    if game.board_cider {
        game.board_cider = false;
        game.players[p].cider += 1;
    }
    Ok(())
}
