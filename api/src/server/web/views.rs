//! What the web app draws for each game: the one place pages map a game to its view module
//! (`board.rs` for Caverna, `village.rs`, `above_and_below.rs`). Adding a game with a board
//! adds its module and a line here; a game without one (its spec's `capabilities.board_view`
//! is false) is shown through the game-agnostic panels.

use maud::{html, Markup};
use serde_json::Value;

use chronicle_game::{GameKind, LedgerLine};
use chronicle_store::GameHead;

/// How the pages draw one game.
pub struct GameView {
    /// The board of a state (the engine's view of it).
    pub board: fn(&Value) -> Markup,
    /// What the ledger below the viewer counts, for people.
    pub ledger_hint: &'static str,
}

/// The hint of a game whose ledger is the engine's generic one.
const GENERIC_LEDGER: &str = "What each entry changed, player by player, as the game's engine counts it";

static CAVERNA: GameView = GameView {
    board: super::board::caverna,
    ledger_hint: "Goods and animals, begging markers, spaces covered, stables, furnishings, dwarfs, and points",
};

static VILLAGE: GameView = GameView { board: super::village::village, ledger_hint: GENERIC_LEDGER };

static ABOVE_AND_BELOW: GameView =
    GameView { board: super::above_and_below::above_and_below, ledger_hint: GENERIC_LEDGER };

/// The games with a board and their views: one line per game.
static VIEWS: [(GameKind, &GameView); 3] =
    [(GameKind::Caverna, &CAVERNA), (GameKind::Village, &VILLAGE), (GameKind::AboveAndBelow, &ABOVE_AND_BELOW)];

/// The view of game `kind`, when it has a board (`capabilities.board_view`). A list, not a
/// match: a build with the test-only toy game has one more kind, without a board.
pub fn view(kind: GameKind) -> Option<&'static GameView> {
    VIEWS.iter().find(|(k, _)| *k == kind).map(|(_, v)| *v)
}

/// A state drawn the way its game's view is shaped; a state of a game without a board (or of
/// no known game) is shown through the generic panels.
pub fn board(kind: Option<GameKind>, state: &Value) -> Markup {
    match kind.and_then(view) {
        Some(v) => (v.board)(state),
        None => super::panels::generic(state),
    }
}

/// What one entry changed, player by player, as the engine's ledger line for it says (the
/// line the ledger table marks): every game alike, in the players' names.
pub fn changes(head: &GameHead, line: Option<&LedgerLine>) -> Markup {
    let names: Vec<&str> = head.record.players.iter().map(|p| p.name.as_str()).collect();
    let name = |seat: usize| names.get(seat).copied().unwrap_or("?");
    let mut by_player: Vec<(usize, Vec<String>)> = Vec::new();
    for c in line.map(|l| l.changes.as_slice()).unwrap_or(&[]) {
        let text = format!("{:+} {}", c.delta, c.item.replace('_', " "));
        match by_player.iter_mut().find(|(p, _)| *p == c.player) {
            Some((_, list)) => list.push(text),
            None => by_player.push((c.player, vec![text])),
        }
    }
    html! {
        div.ledger {
            @if by_player.is_empty() { p { "Nothing any player counts changed." } }
            @else { ul { @for (seat, list) in &by_player { li { strong { (name(*seat)) } ": " (list.join(", ")) } } } }
            @if let Some(p) = line.and_then(|l| l.player) { p.hint { "Entry by " (name(p)) " (seat " (p + 1) ")." } }
        }
    }
}

/// The ledger's hint for game `kind`.
pub fn ledger_hint(kind: Option<GameKind>) -> Markup {
    let hint = kind.and_then(view).map_or(GENERIC_LEDGER, |v| v.ledger_hint);
    html! { p.hint { (hint) "; " em { "points" } ": the score the pad would show if the game were scored after the entry." } }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game draws a board exactly when its spec says it has one: the capability is what the
    /// API reports (`GameKind.capabilities.boardView`).
    #[test]
    fn a_game_has_a_view_exactly_when_its_spec_says_it_has_a_board() {
        for &k in GameKind::ALL {
            assert_eq!(view(k).is_some(), k.spec().capabilities.board_view, "{k}");
        }
    }
}
