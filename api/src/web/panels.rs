//! Pieces every game's board drawing shares (`village.rs`, `above_and_below.rs`): counts as
//! small labelled chips, the phase line, and a player's provisional score by the game's
//! score-pad rows. They only show the engine's numbers (its state view, docs/state.md).

use maud::{html, Markup};
use serde_json::Value;

use chronicle_game::GameKind;

/// An id as words (`track_travel` → `track travel`).
pub fn label(id: &str) -> String {
    id.replace('_', " ")
}

/// The players' names, in seat order.
pub fn names(state: &Value) -> Vec<String> {
    state["players"].as_array().map_or_else(Vec::new, |ps| {
        ps.iter().map(|p| p["name"].as_str().unwrap_or("?").to_owned()).collect()
    })
}

/// The name of seat `seat` (`?` for a seat the state does not have).
pub fn name_of(names: &[String], seat: u64) -> &str {
    usize::try_from(seat).ok().and_then(|s| names.get(s)).map_or("?", String::as_str)
}

/// The non-zero counts of a JSON object of numbers, as chips (`3 pink`); `none` when all are 0.
pub fn chips(counts: &Value) -> Markup {
    let items: Vec<(&String, i64)> = counts
        .as_object()
        .map(|o| o.iter().filter_map(|(k, n)| n.as_i64().filter(|n| *n != 0).map(|n| (k, n))).collect())
        .unwrap_or_default();
    html! {
        @if items.is_empty() { span.hint { "none" } }
        @for (id, n) in items { span.good data-good=(id) { (n) " " (label(id)) } " " }
    }
}

/// A list of ids as text (`—` when empty).
pub fn ids(list: &Value) -> String {
    let items: Vec<String> = list
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().map_or_else(|| "—".to_owned(), label)).collect())
        .unwrap_or_default();
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.join(", ")
    }
}

/// The round and phase, and who is to move or what the game waits for.
pub fn phase_line(state: &Value, names: &[String]) -> Markup {
    html! {
        p.phase { "Round " (state["round"]) ", phase " (label(state["phase"].as_str().unwrap_or("")))
            @if let Some(p) = state["to_move"].as_u64() { ", to move: " strong.to-move { (name_of(names, p)) } }
            @if let Some(w) = state["waiting_for"].as_str() { " — waiting for " (w) }
        }
    }
}

/// A player's score if the game ended now, row by row with the score pad's labels.
pub fn provisional(kind: GameKind, player: &Value) -> Markup {
    let spec = kind.spec();
    let score = &player["provisional_score"];
    html! {
        @if let Some(total) = score["total"].as_i64() {
            table.provisional-rows title="the score pad applied to what the player has now; final only when the game is over" {
                tbody {
                    @for row in spec.score_rows {
                        tr data-row=(row.id) { th scope="row" { (row.label) } td.num { (score["rows"][row.id].as_i64().unwrap_or(0)) } }
                    }
                    tr.total { th scope="row" { "Score if the game ended now" } td.num.provisional-total { (total) } }
                }
            }
        }
    }
}
