//! Drawing an Above and Below state (the engine's view, `engine/above-and-below/src/view.rs`;
//! docs/state.md): the face-up rows and decks, then each player's villagers, houses, caves,
//! goods, storage track and provisional score by row; and the game page's trust report (what
//! the replay checked and what it took as the log declared it). Nothing here decides a rule.

use maud::{html, Markup};
use serde_json::Value;

use chronicle_game::GameKind;

use super::panels::{chips, ids, label, name_of, names, phase_line, provisional};

/// The face-up rows, in the order the view names them, with what the table calls them.
const ROWS: [(&str, &str); 5] = [
    ("houses", "Houses"),
    ("outposts", "Outposts"),
    ("keys", "Key houses"),
    ("stars", "Star houses"),
    ("villagers", "Villagers to train"),
];

/// Above and Below's state: the rows and decks, then one panel per player.
pub fn above_and_below(state: &Value) -> Markup {
    let names = names(state);
    let players = state["players"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let passed: Vec<&str> = state["passed"]
        .as_array()
        .map(|a| {
            a.iter()
                .enumerate()
                .filter(|(_, p)| p.as_bool() == Some(true))
                .map(|(i, _)| name_of(&names, i as u64))
                .collect()
        })
        .unwrap_or_default();
    html! {
        div.state.above-and-below {
            (phase_line(state, &names))
            @if !passed.is_empty() { p.hint { "Passed this round: " (passed.join(", ")) } }
            (rows(state))
            div.players { @for (seat, p) in players.iter().enumerate() { (player_panel(seat, p)) } }
        }
    }
}

fn rows(state: &Value) -> Markup {
    let decks = &state["decks"];
    html! {
        details.spaces open {
            summary { "Face-up rows and decks" }
            div.scroll { table.rows {
                tbody { @for (id, name) in ROWS {
                    tr data-row=(id) { th scope="row" { (name) } td { (ids(&state["rows"][id])) } }
                }
                tr { th scope="row" { "Training costs" } td { (ids_num(&state["train_costs"])) } } }
            } }
            p.supply {
                "Cards left: " (decks["houses"]) " houses, " (decks["outposts"]) " outposts, "
                (decks["villagers"]) " villagers, " (decks["caves"]) " caves"
                @if state["board_cider"].as_bool() == Some(true) { " · a cider on the board" }
            }
        }
    }
}

/// A list of numbers as text.
fn ids_num(list: &Value) -> String {
    list.as_array().map(|a| a.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")).unwrap_or_default()
}

fn player_panel(seat: usize, p: &Value) -> Markup {
    let storage: Vec<String> = p["storage"]
        .as_array()
        .map(|s| s.iter().map(|g| format!("{} {}", g["n"], label(g["good"].as_str().unwrap_or("?")))).collect())
        .unwrap_or_default();
    html! {
        section.player data-seat=(seat) {
            h3 { (p["name"].as_str().unwrap_or("?")) }
            p.supply {
                span.good data-good="coins" { (p["coins"]) " coins" } " "
                span.good data-good="reputation" { "reputation " (p["reputation"]) } " "
                span.good data-good="potions" { (p["potions"]) " potions" } " "
                span.good data-good="cider" { (p["cider"]) " cider" } " "
                span.good { (p["beds"]) " beds" } " "
                span.good { "income " (p["income"]) }
            }
            p.supply { "Reserve: " (chips(&p["reserve"]))
                @if let Some(sale) = p["sale"].as_str() { " · for sale: " (label(sale)) } }
            p.supply { "Storage track: " @if storage.is_empty() { span.hint { "empty" } } @else { (storage.join(" · ")) } }
            (holdings(p))
            (provisional(GameKind::AboveAndBelow, p))
        }
    }
}

/// The player's villagers by state, houses with their goods tokens, caves with their outposts.
fn holdings(p: &Value) -> Markup {
    let list = |v: &Value| v.as_array().map(Vec::as_slice).unwrap_or(&[]).to_vec();
    let tokens = |card: &Value| {
        let t = ids(&card["tokens"]);
        if t == "—" {
            String::new()
        } else {
            format!(" ({t})")
        }
    };
    html! {
        table.holdings { tbody {
            tr { th scope="row" { "Villagers" } td { @for (i, v) in list(&p["villagers"]).iter().enumerate() {
                @if i > 0 { ", " }
                span class={ "villager " (v["state"].as_str().unwrap_or("")) } { (label(v["id"].as_str().unwrap_or("?"))) " (" (v["state"].as_str().unwrap_or("?")) ")" }
            } } }
            tr { th scope="row" { "Houses" } td { @for (i, h) in list(&p["houses"]).iter().enumerate() {
                @if i > 0 { ", " } (label(h["id"].as_str().unwrap_or("?"))) (tokens(h))
            } } }
            tr { th scope="row" { "Caves" } td { @for (i, c) in list(&p["caves"]).iter().enumerate() {
                @if i > 0 { ", " } (label(c["id"].as_str().unwrap_or("?")))
                @if let Some(o) = c["outpost"]["id"].as_str() { " with " (label(o)) (tokens(&c["outpost"])) }
            } } }
        } }
    }
}

/// The trust report of a stored game (`chronicle_above_and_below::trust::report`): the data
/// the log declared, then per player what the replay checked and what it took as declared
/// (only the non-zero counts), then the warnings.
pub fn trust(report: &Value) -> Markup {
    let players = report["players"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let warnings = report["warnings"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    html! {
        section #trust {
            h2 { "What was checked and what was trusted" }
            p { (report["entries_checked"]) " entries were checked against the rules. "
                "An Above and Below log declares its own card catalogue, board numbers and encounter content; the verdict rests on them." }
            @if !report["declared"].is_null() { ul.declared {
                li { "Catalogue: " (source(&report["declared"]["catalogue"])) }
                li { "Board: " (source(&report["declared"]["board"])) }
            } }
            div.scroll { table.trust {
                thead { tr { th { "Player" } th { "Checked" } th { "Taken as declared" } } }
                tbody { @for p in players {
                    tr data-seat=(p["seat"]) {
                        td { (p["name"].as_str().unwrap_or("?")) }
                        td { (counted(&p["verified"]["explorations"], "exploration", "explorations")) ", "
                            (counted(&p["verified"]["paragraphs_checked"], "first paragraph", "first paragraphs")) " against cave tables" }
                        td { (chips(&p["trusted"])) }
                    }
                } }
            } }
            @if !warnings.is_empty() { ul.warnings { @for w in warnings {
                li { code { (w["code"].as_str().unwrap_or("")) }
                    @if let Some(e) = w["entry"].as_u64() { " at entry " (e) }
                    ": " (w["message"].as_str().unwrap_or("")) }
            } } }
        }
    }
}

fn source(s: &Value) -> String {
    s.as_str().map_or_else(|| "declared without a source".to_owned(), str::to_owned)
}

/// A count read from a report in words: "1 exploration", "4 explorations" (0 when absent).
fn counted(n: &Value, one: &str, many: &str) -> String {
    let n = n.as_u64().unwrap_or(0);
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    /// The trust table counts in words, singular for one ("1 exploration"), and shows what was
    /// taken as declared as chips.
    #[test]
    fn the_trust_table_counts_one_in_the_singular() {
        let report = json!({
            "entries_checked": 12,
            "declared": null,
            "players": [
                { "seat": 0, "name": "Ana", "verified": { "explorations": 1, "paragraphs_checked": 1 },
                  "trusted": { "encounter_coins": 6 } },
                { "seat": 1, "name": "Bo", "verified": { "explorations": 4, "paragraphs_checked": 0 }, "trusted": {} },
            ],
            "warnings": [],
        });
        let html = super::trust(&report).into_string();
        assert!(html.contains("1 exploration, 1 first paragraph against cave tables"), "{html}");
        assert!(html.contains("4 explorations, 0 first paragraphs against cave tables"), "{html}");
        assert!(html.contains("data-good=\"encounter_coins\""), "{html}");
    }
}
