//! The trust report of a stored game whose log declares component data (a spec with
//! `capabilities.trust_report`): what the replay checked and what it took as the log declared
//! it (`GameEngine::trust_report`). Nothing here decides a rule.

use maud::{html, Markup};
use serde_json::Value;

/// Counts of a JSON object, non-zero ones as chips (`3 encounter coins`); `none` when all are 0.
fn chips(counts: &Value) -> Markup {
    let items: Vec<(&String, i64)> = counts
        .as_object()
        .map(|o| o.iter().filter_map(|(k, n)| n.as_i64().filter(|n| *n != 0).map(|n| (k, n))).collect())
        .unwrap_or_default();
    html! {
        @if items.is_empty() { span.hint { "none" } }
        @for (id, n) in items { span.good data-good=(id) { (n) " " (id.replace('_', " ")) } " " }
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
