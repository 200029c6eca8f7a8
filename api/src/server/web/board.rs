//! Drawing a Caverna state the engine produced (its JSON view, docs/state.md) as HTML
//! (`views.rs` picks each game's drawing): the action board and every
//! player's home board, supply, dwarfs and weapons, and the ledger of an entry (what changed for
//! each player between the state before it and after it). Nothing here decides anything about
//! the rules: it shows the engine's numbers.

use std::collections::BTreeMap;

use maud::{html, Markup};
use serde_json::Value;

// Rows and columns of a Caverna home board with its Office-room ring, as the engine has them:
// the printed board is rows 0–3 × columns 0–5.
use chronicle_caverna::board::{COLS, ROWS};

/// The state's goods of a player, the counts that are numbers.
fn goods(player: &Value) -> BTreeMap<String, i64> {
    const NOT_GOODS: [&str; 6] = ["name", "begging", "dwarfs", "board", "furnishings", "provisional_score"];
    player
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| !NOT_GOODS.contains(&k.as_str()))
                .filter_map(|(k, v)| v.as_i64().map(|n| (k.clone(), n)))
                .collect()
        })
        .unwrap_or_default()
}

fn label(id: &str) -> String {
    id.replace('_', " ")
}

/// Caverna's state: action spaces, then one panel per player.
pub fn caverna(state: &Value) -> Markup {
    let players = state["players"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let names: Vec<&str> = players.iter().map(|p| p["name"].as_str().unwrap_or("?")).collect();
    let spaces = state["spaces"].as_object();
    html! {
        div.state {
            p.phase { "Round " (state["round"]) ", phase " (state["phase"].as_str().unwrap_or(""))
                @if let Some(p) = state["to_move"].as_u64() { ", to move: " strong.to-move { (names.get(p as usize).copied().unwrap_or("?")) } } }
            details.spaces open {
                summary { "Action spaces" }
                div.scroll { table.spaces {
                    thead { tr { th { "Space" } th { "Goods on it" } th { "Occupied by" } } }
                    tbody { @if let Some(spaces) = spaces { @for (id, s) in spaces {
                        tr data-space=(id) {
                            td { (label(id)) }
                            td { @if let Some(g) = s["goods"].as_object() { @for (good, n) in g { @if n.as_i64().unwrap_or(0) > 0 { span.good { (n) " " (label(good)) } " " } } } }
                            td { @if let Some(p) = s["occupant"].as_u64() { (names.get(p as usize).copied().unwrap_or("?")) } }
                        }
                    } } }
                } }
            }
            div.players { @for (seat, p) in players.iter().enumerate() { (player_panel(seat, p)) } }
        }
    }
}

fn player_panel(seat: usize, p: &Value) -> Markup {
    let cells: BTreeMap<(i64, i64), &Value> = p["board"]["cells"]
        .as_array()
        .map(|cells| cells.iter().filter_map(|c| Some(((c["at"][0].as_i64()?, c["at"][1].as_i64()?), c))).collect())
        .unwrap_or_default();
    html! {
        section.player data-seat=(seat) {
            h3 { (p["name"].as_str().unwrap_or("?")) }
            div.home-board role="img" aria-label={ "home board of " (p["name"].as_str().unwrap_or("?")) } {
                @for row in ROWS { @for col in COLS {
                    @let inner = (0..=3).contains(&row) && (0..=5).contains(&col);
                    @let cell = cells.get(&(i64::from(row), i64::from(col)));
                    div class={ "cell" @if !inner { " ring" } @if let Some(c) = cell { " " (c["tile"].as_str().unwrap_or("stable-only")) } }
                        data-at={ (row) "," (col) } title={ "row " (row) ", column " (col) } {
                        @if let Some(c) = cell {
                            @if let Some(f) = c["furnishing"].as_str() { span.furnishing { (label(f)) } }
                            @else if let Some(t) = c["tile"].as_str() { span.tile { (label(t)) } }
                            @if c["stable"].as_bool() == Some(true) { span.stable { "stable" } }
                            @if let Some(crop) = c["crop"].as_object() { @for (k, n) in crop { span.crop { (n) " " (k) } } }
                        }
                    }
                } }
            }
            div.supply {
                @for (good, n) in goods(p) { @if n != 0 { span.good data-good=(good) { (n) " " (label(&good)) } " " } }
                @if p["begging"].as_i64().unwrap_or(0) > 0 { span.good.begging { (p["begging"]) " begging" } }
            }
            @if let Some(total) = p["provisional_score"]["total"].as_i64() {
                p.provisional title="the score pad applied to what the player has now; final only when the game is over" {
                    "Score if the game ended now: " strong.provisional-total { (total) }
                }
            }
            p.dwarfs { "Dwarfs: " @for (i, d) in p["dwarfs"].as_array().map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
                @if i > 0 { ", " }
                span.dwarf { @if let Some(w) = d["weapon"].as_u64() { "weapon " (w) } @else { "unarmed" }
                    @if let Some(s) = d["space"].as_str() { " on " (label(s)) }
                    @if d["newborn"].as_bool() == Some(true) { " (newborn)" } }
            } }
        }
    }
}
