//! A turn (`docs/rules/village.md` C.3, C.5, G.3, H.31 – H.33): take a cube, use the well, or — in the end
//! sequence on an empty board — a free last action; then the action.

use super::payment::{spend_time, Deaths};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Task};
use crate::ids::{Cube, Space};
use crate::notation::{Action, Take, WellNotation};

/// One `turn` entry's parts.
pub struct TurnEntry<'a> {
    pub player: usize,
    pub take: Option<&'a Take>,
    pub well: Option<&'a WellNotation>,
    pub free: bool,
    pub action: Option<&'a Action>,
}

/// Plays a turn; the [`Task::Turn`] of `player` is on top.
pub fn turn(game: &mut Game, t: &TurnEntry<'_>, last: bool) -> RuleResult {
    let p = t.player;
    let kinds = usize::from(t.take.is_some()) + usize::from(t.well.is_some()) + usize::from(t.free);
    if kinds != 1 {
        return fail(ErrorCode::BadTurn, "a turn has exactly one of `take`, `well` or `free: true` (RULES.md G.3.2)");
    }
    game.tasks.pop();
    game.turn_player = Some(p);
    let mut took: Option<(Cube, Space)> = None;
    if let Some(tk) = t.take {
        if game.space(tk.space).get(tk.cube) == 0 {
            return fail(ErrorCode::CubeNotOnSpace, format!("no {} cube on {} (RULES.md G.3.3)", tk.cube, tk.space));
        }
        if let Some(a) = t.action {
            if a.space() != tk.space {
                return fail(
                    ErrorCode::WrongAction,
                    format!(
                        "a cube from {} allows the `{}` action, not `{}` (RULES.md G.3.4)",
                        tk.space,
                        expected(tk.space),
                        a.id()
                    ),
                );
            }
        } else if tk.space == Space::Market {
            return fail(
                ErrorCode::MarketMustBeHeld,
                "a cube taken from the market obliges a market day (RULES.md G.3.5)",
            );
        }
        game.space_mut(tk.space).take(tk.cube, 1);
        if tk.cube.is_influence() {
            game.players[p].cubes.add(tk.cube, 1);
        } else {
            // C.3: the plague cube returns to the supply; its 2 time come before the action
            // and its death at the end of the turn (H.30).
            game.supply.add(Cube::Black, 1);
            spend_time(game, p, 2, Deaths::EndOfTurn)?;
        }
        took = Some((tk.cube, tk.space));
    } else if let Some(w) = t.well {
        if t.action.is_none() {
            return fail(
                ErrorCode::WellNeedsAction,
                "the well is used to perform an action: `action` is required (RULES.md H.31)",
            );
        }
        super::well::pay_well(game, p, w)?;
    } else if !(last && game.board_empty()) {
        return fail(
            ErrorCode::FreeNotAllowed,
            "a free action only in the end sequence, with the board empty, on a last turn (RULES.md G.3.7)",
        );
    }
    game.tasks.push(Task::EndTurn { player: p, took });
    if let Some(a) = t.action {
        super::perform(game, p, a)?;
    }
    Ok(())
}

fn expected(s: Space) -> &'static str {
    match s {
        Space::Crafts => "craft",
        other => other.id(),
    }
}
