//! Drawing a Village state (the engine's view, `engine/village/src/view.rs`; docs/state.md):
//! the cubes on each action space, the market, the bags, then each player's family, goods,
//! time and provisional score by row; Carla's board in a solo game. Nothing here decides a
//! rule: it lays out the engine's numbers.

use std::collections::BTreeMap;

use maud::{html, Markup};
use serde_json::Value;

use chronicle_game::GameKind;

use super::panels::{chips, ids, label, name_of, names, phase_line, provisional};

/// Village's state: the board, the market and bags, then one panel per player.
pub fn village(state: &Value) -> Markup {
    let names = names(state);
    let players = state["players"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    html! {
        div.state.village {
            (phase_line(state, &names))
            @if state["end_triggered"].as_bool() == Some(true) { p.hint { "The end of the game is triggered: last turns are being played." } }
            (board(state))
            (market(state, &names))
            div.players {
                @for (seat, p) in players.iter().enumerate() { (player_panel(seat, p)) }
                @if !state["carla"].is_null() { (carla(&state["carla"])) }
            }
        }
    }
}

/// The cubes on each action space, and the bags and supply they come from.
fn board(state: &Value) -> Markup {
    html! {
        details.spaces open {
            summary { "Action spaces" }
            div.scroll { table.spaces {
                thead { tr { th { "Space" } th { "Cubes on it" } } }
                tbody { @if let Some(spaces) = state["board"].as_object() { @for (id, cubes) in spaces {
                    tr data-space=(id) { td { (label(id)) } td { (chips(cubes)) } }
                } } }
            } }
            p.supply { "Green bag: " (chips(&state["green_bag"])) " · monks in the bag: " (state["monks_in_bag"]) }
            p.supply { "Supply: " (chips(&state["supply"])) }
        }
    }
}

/// The market's stalls and queue, and the market day when one is being held.
fn market(state: &Value, names: &[String]) -> Markup {
    let m = &state["market"];
    let who =
        |v: &Value| v.as_u64().map_or_else(|| v.as_str().unwrap_or("—").to_owned(), |p| name_of(names, p).to_owned());
    html! {
        p.market {
            "Market stalls: " (ids(&m["stalls"])) " · queue: " (ids(&m["queue"])) " · customers left in the pile: " (m["pile"])
            @if !m["day"].is_null() { " · market day, next: " (who(&m["day"]["next"])) }
        }
    }
}

/// Where a player's family members are, as `place: generations` (dead and unborn included).
fn family(members: &Value) -> Vec<(String, String)> {
    let mut at: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in members.as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let place = m["at"].as_str().unwrap_or("?").replace(':', " ");
        at.entry(label(&place)).or_default().push(format!("gen {}", m["gen"]));
    }
    at.into_iter().map(|(place, gens)| (place, gens.join(", "))).collect()
}

fn player_panel(seat: usize, p: &Value) -> Markup {
    let name = p["name"].as_str().unwrap_or("?");
    html! {
        section.player data-seat=(seat) {
            h3 { (name) @if let Some(c) = p["color"].as_str() { " " span.hint { "(" (c) ")" } } }
            p.supply {
                span.good data-good="coins" { (p["coins"]) " coins" } " "
                span.good data-good="grain" { (p["grain"]) " grain" } " "
                span.good data-good="time" { (p["time"]) " time" } " "
                @if p["token"].as_bool() == Some(true) { span.good { "first-player token" } }
            }
            p.supply { "Cubes: " (chips(&p["cubes"])) }
            p.supply { "Goods: " (chips(&p["goods"])) }
            table.family { tbody { @for (place, gens) in family(&p["members"]) {
                tr { th scope="row" { (place) } td { (gens) } }
            } } }
            p.hint { "Customers served: " (ids(&p["customers"])) " · cities visited: " (ids(&p["cities"])) }
            (provisional(GameKind::Village, p))
        }
    }
}

/// Carla, the solo game's opponent: her board, the fate she has revealed, her customers.
fn carla(c: &Value) -> Markup {
    html! {
        section.player.carla {
            h3 { "Carla" @if let Some(color) = c["color"].as_str() { " " span.hint { "(" (color) ")" } } }
            p.supply { "Board: " (ids(&c["board"])) " · next box: " (c["next_box"]) }
            p.supply { "Fate revealed: " (ids(&c["fate"]["top"])) " / " (ids(&c["fate"]["bottom"])) }
            p.hint { "Customers served: " (ids(&c["served"])) }
        }
    }
}
