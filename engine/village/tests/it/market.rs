//! Market day (`docs/rules/village.md` D.4, G.7, H.3, H.12).

use serde_json::json;

use crate::common::*;

/// The worked example's market day, entries 6–9 (D.4): the trigger's first sale is free, the
/// other player pays green (a coin here) and 1 time; the refill slides the queue (H.3).
fn market_prefix() -> Vec<serde_json::Value> {
    let log = fixture("worked-example-2p-round-1.json");
    log["entries"].as_array().map(|a| a[1..7].to_vec()).unwrap_or_default()
}

#[test]
fn d4_sales_and_refill_as_in_the_worked_example() {
    let mut e = market_prefix();
    e.push(json!({"type": "sale", "player": 1, "customer": "c09"}));
    e.push(json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}));
    e.push(json!({"type": "refill", "tiles": ["c07", "c22"]}));
    let s = state_until(&example(e));
    assert_eq!(s["market"]["stalls"], json!(["c04", "c01", "c12"]));
    assert_eq!(s["market"]["queue"], json!(["c18", "c20", "c23", "c07", "c22"]));
    assert_eq!(s["players"][0]["time"], json!(7));
    assert_eq!(s["players"][1]["customers"], json!(["c09"]));
}

/// G.7.1 – G.7.6: each market-day fault has its code.
#[test]
fn g7_market_faults_table() {
    let cases = [
        (vec![json!({"type": "sale", "player": 0, "customer": "c09"})], "not_your_market_turn"),
        (vec![json!({"type": "sale", "player": 1, "customer": "c01"})], "customer_not_available"),
        (vec![json!({"type": "sale", "player": 1, "customer": "c04"})], "cannot_pay"),
        (
            vec![
                json!({"type": "sale", "player": 1, "customer": "c09"}),
                json!({"type": "sale", "player": 0, "customer": "c15"}),
            ],
            "cannot_pay",
        ),
        (
            vec![
                json!({"type": "sale", "player": 1, "customer": "c09"}),
                json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}),
                json!({"type": "refill", "tiles": ["c07"]}),
            ],
            "refill_count",
        ),
        (
            vec![
                json!({"type": "sale", "player": 1, "customer": "c09"}),
                json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}),
                json!({"type": "refill", "tiles": ["c07", "c01"]}),
            ],
            "customer_not_in_pile",
        ),
        (
            vec![json!({"type": "pass", "player": 1}), json!({"type": "sale", "player": 1, "customer": "c09"})],
            "already_passed",
        ),
    ];
    for (tail, code) in cases {
        let mut e = market_prefix();
        let n = e.len() + tail.len(); // index of the last entry, counting the populate
        e.extend(tail);
        assert_invalid(&example(e), n, code);
    }
    assert_invalid(&example(vec![json!({"type": "pass", "player": 0})]), 1, "no_market_day");
}

/// D.4 / LOG-FORMAT: a player with no legal sale passes automatically; a written pass for
/// that player is accepted and consumed.
#[test]
fn d4_automatic_pass_may_be_written() {
    let mut e = market_prefix();
    e.push(json!({"type": "sale", "player": 1, "customer": "c09"}));
    e.push(json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}));
    e.push(json!({"type": "pass", "player": 1}));
    e.push(json!({"type": "pass", "player": 0}));
    e.push(json!({"type": "refill", "tiles": ["c07", "c22"]}));
    assert_valid(&example(e));
}

/// G.3.9: after a market day with a sale, the refill is the next entry (unseeded).
#[test]
fn g3_9_refill_expected() {
    let mut e = market_prefix();
    e.push(json!({"type": "sale", "player": 1, "customer": "c09"}));
    e.push(json!({"type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"]}));
    e.push(take(0, "crafts", "black"));
    assert_invalid(&example(e), 9, "expected_entry");
}
