//! The well (`docs/rules/village.md` D.8, G.3.6, H.31): 3 influence cubes of one colour (coins standing
//! in, H.11) instead of taking a cube, for any one action.

use super::payment::{pay, Cost, Deaths};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::Game;
use crate::notation::WellNotation;

/// Pays the well's cost; the action is performed by the caller.
pub fn pay_well(game: &mut Game, p: usize, well: &WellNotation) -> RuleResult {
    if game.board_empty() {
        return fail(
            ErrorCode::WellBoardEmpty,
            "the well is used only while a cube lies on an action space (RULES.md D.8)",
        );
    }
    if !well.color.is_influence() {
        return fail(
            ErrorCode::CannotPay,
            "the well takes 3 cubes of one influence colour, not plague cubes (RULES.md D.8)",
        );
    }
    if well.coins > 3 {
        return fail(
            ErrorCode::BadCoinSubstitution,
            format!("{} coins for a cost of 3 cubes (RULES.md D.9)", well.coins),
        );
    }
    let coin_for = vec![well.color; well.coins as usize];
    pay(game, p, &Cost::cube(well.color, 3), &coin_for, Deaths::EndOfTurn)
}
