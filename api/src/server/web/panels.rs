//! Pieces every game's board drawing shares (`village.rs`, `above_and_below.rs`): counts as
//! small labelled chips, the phase line, a player's provisional score by the game's score-pad
//! rows, and what an entry changed. They only show the engine's numbers (its state view, docs/state.md).

use std::collections::BTreeMap;

use maud::{html, Markup};
use serde_json::Value;

use chronicle_game::GameKind;

/// An id as words (`track_travel` → `track travel`).
pub fn label(id: &str) -> String {
    id.replace('_', " ")
}

/// The players' names, in seat order.
pub fn names(state: &Value) -> Vec<String> {
    state["players"]
        .as_array()
        .map_or_else(Vec::new, |ps| ps.iter().map(|p| p["name"].as_str().unwrap_or("?").to_owned()).collect())
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

/// Keys of a player's view that are not counts of what the player has (derived or bookkeeping).
const NOT_COUNTED: [&str; 4] = ["life_position", "trust", "declared", "provisional_score"];

/// A player's counts by name: numbers, numbers one level down (`cubes pink`), list lengths
/// (`houses`), and the provisional total as `points`.
fn counts(player: &Value) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    let Some(o) = player.as_object() else { return out };
    for (k, v) in o.iter().filter(|(k, _)| !NOT_COUNTED.contains(&k.as_str())) {
        match v {
            Value::Number(n) => {
                out.insert(label(k), n.as_i64().unwrap_or(0));
            }
            Value::Array(a) => {
                out.insert(label(k), i64::try_from(a.len()).unwrap_or(i64::MAX));
            }
            Value::Object(inner) => {
                for (sub, n) in inner.iter().filter_map(|(s, n)| n.as_i64().map(|n| (s, n))) {
                    out.insert(format!("{} {}", label(k), label(sub)), n);
                }
            }
            _ => {}
        }
    }
    if let Some(total) = player["provisional_score"]["total"].as_i64() {
        out.insert("points".to_owned(), total);
    }
    out
}

/// A state of a game without a board of its own (`capabilities.board_view` false): the phase
/// line, then each player's counts as the engine's view gives them, in words; a view without
/// players is listed member by member (numbers, yes or no, lists joined), never as JSON.
pub fn generic(state: &Value) -> Markup {
    let names = names(state);
    let players = state["players"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let members: Vec<(String, String)> = state
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| !IN_PHASE_LINE.contains(&k.as_str()))
                .filter_map(|(k, v)| Some((label(k), words(v)?)))
                .collect()
        })
        .unwrap_or_default();
    html! {
        (phase_line(state, &names))
        @if !members.is_empty() { ul.state { @for (what, value) in &members { li { (what) ": " (value) } } } }
        div.players { @for (seat, p) in players.iter().enumerate() {
            section.player {
                h3 { (p["name"].as_str().unwrap_or("?")) span.hint { " · seat " (seat + 1) } }
                ul { @for (what, n) in counts(p) { li { (what) ": " (n) } } }
            }
        } }
    }
}

/// Members of a view the phase line and the player panels already show.
const IN_PHASE_LINE: [&str; 5] = ["players", "round", "phase", "to_move", "waiting_for"];

/// A scalar, or a list of scalars, in words (`None` for anything deeper).
fn words(v: &Value) -> Option<String> {
    match v {
        Value::Bool(b) => Some(if *b { "yes" } else { "no" }.to_owned()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(label(s)),
        Value::Array(a) => a
            .iter()
            .map(|x| match x {
                Value::Array(_) | Value::Object(_) => None,
                other => words(other),
            })
            .collect::<Option<Vec<String>>>()
            .map(|w| if w.is_empty() { "none".to_owned() } else { w.join(", ") }),
        Value::Null | Value::Object(_) => None,
    }
}
