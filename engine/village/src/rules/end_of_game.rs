//! The end of the game (`docs/rules/village.md` E.2, H.13, H.23): who is owed a last turn once a death
//! fills the last chronicle space or the last grave.

use std::collections::VecDeque;

use crate::game::{EndState, Game};
use crate::notation::Who;

/// Triggers the end (once) by a member of `by` (E.2, C.7 step 3).
///
/// * Outside a market day the dying member is the turn player's: every other player gets one
///   last turn, clockwise from that player's left.
/// * During a market day started by player M: if M's member filled the space, the same; if
///   anyone else's, every player gets one, from M's left, M last (H.13). A market day started
///   by Carla counts as another's (solo: you get your last turn).
/// * Solo: Carla's death gives you one last turn (H.23); yours gives none.
pub fn trigger(game: &mut Game, by: Who) {
    if game.end.is_some() {
        return;
    }
    let n = game.player_count();
    let from = |start: usize, count: usize| -> VecDeque<usize> { (0..count).map(|k| (start + k) % n).collect() };
    let owed = match (&game.market_day, by) {
        (_, Who::Carla) => from(0, n),
        (Some(day), Who::Seat(dier)) => match day.trigger {
            Who::Seat(m) if m == dier => from(m + 1, n - 1),
            Who::Seat(m) => from(m + 1, n),
            Who::Carla => from(0, n),
        },
        (None, Who::Seat(dier)) => {
            let t = game.turn_player.unwrap_or(dier);
            from(t + 1, n - 1)
        }
    };
    game.end = Some(EndState { owed });
}
