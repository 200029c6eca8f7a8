//! The storage track (`docs/rules/above-and-below.md` A.5, D.9, H.19, H.23, H.32): goods move from the reserve to
//! the track at any time; the first token of a type takes the left-most empty space, later
//! tokens join it; one type per space; stored tokens never move again.

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::game::Game;
use crate::ids::{Good, Item};

pub fn store(game: &mut Game, p: usize, goods: &[Good]) -> RuleResult {
    let spaces = game.setup.board.spaces.len();
    for g in goods {
        let pl = &mut game.players[p];
        ensure(pl.in_reserve(Item::Good(*g)) > 0, ErrorCode::Store, || {
            format!("no {} in the reserve to store (D.9.1)", g.id())
        })?;
        let used = pl.storage.len();
        match pl.storage.iter_mut().find(|(t, _)| t == g) {
            Some((_, n)) => *n += 1,
            None if used < spaces => pl.storage.push((*g, 1)),
            None => {
                return fail(
                    ErrorCode::Store,
                    format!("no empty storage space left for a new type ({}) (D.9.2, H.32)", g.id()),
                )
            }
        }
        *pl.reserve_mut(Item::Good(*g)) -= 1;
    }
    Ok(())
}
