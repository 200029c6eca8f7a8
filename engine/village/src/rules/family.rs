//! Family (`docs/rules/village.md` D.2, G.5.2, G.5.3, H.29): a birth from the reserve or a recall from the
//! main board.

use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc};
use crate::notation::MemberRef;

/// Births the lowest generation of the reserve, or recalls `recall` to the farm.
pub fn family(game: &mut Game, p: usize, recall: Option<&MemberRef>) -> RuleResult {
    match recall {
        Some(r) => {
            let loc = game.member(p, r)?;
            if !loc.on_board() {
                return fail(
                    ErrorCode::MemberNotFound,
                    format!(
                        "a recall brings back a member from the main board, not from `{}` (RULES.md H.29)",
                        loc.id(game.components())
                    ),
                );
            }
            game.players[p].relocate(r.gen, loc, Loc::Farm);
            Ok(())
        }
        None => {
            let pl = &mut game.players[p];
            let Some(gen) = pl.members.iter().filter(|m| m.loc == Loc::Reserve).map(|m| m.gen).min() else {
                return fail(
                    ErrorCode::ReserveEmpty,
                    format!("the reserve of {} is empty (RULES.md G.5.2)", game.seat_name(p)),
                );
            };
            pl.relocate(gen, Loc::Reserve, Loc::Farm);
            Ok(())
        }
    }
}
