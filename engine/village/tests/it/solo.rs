//! Solo mode against Carla (`docs/rules/village.md` F, G.13, H.21 – H.25, H.43), on an unseeded log with
//! the synthetic component set (Carla's order there: harvest, family, crafts, market, travel,
//! council, church; fate boxes top 2/5/8, bottom 3/7/11).

use serde_json::{json, Value};

use crate::common::*;

pub(crate) fn solo(entries: Vec<Value>) -> Value {
    json!({
        "format": "village-log/1",
        "setup": {
            "players": [ { "name": "Alice", "color": "blue" } ],
            "solo": { "carla_color": "red" },
            "customers": { "stalls": ["c04", "c09", "c15"], "queue": ["c01", "c12", "c18", "c20", "c23"] },
            "components": synthetic()
        },
        "entries": entries
    })
}

/// Three turns: Carla's cubes land on boxes 0, 1, 2; the third flips the first top tile.
pub(crate) fn three_turns(first_flip: &str) -> Vec<Value> {
    vec![
        populate1(),
        take(0, "harvest", "green"),
        json!({"type": "carla", "space": "market", "cube": "green"}),
        json!({"type": "sale", "player": "carla", "customer": "c04"}),
        json!({"type": "refill", "tiles": ["c02"]}),
        take(0, "family", "pink"),
        take(0, "travel", "brown"),
        json!({"type": "fate", "set": "top", "result": first_flip}),
    ]
}

/// F.2 steps 1–2, F.4: no green left on the harvest, so Carla takes the market's green
/// (next clockwise) and holds a market day, serving the first stall.
#[test]
fn f2_f4_carla_takes_clockwise_and_reacts_to_the_market() {
    let s = state_until(&solo(three_turns("blank")[..5].to_vec()));
    assert_eq!(s["carla"]["served"], json!(["c04"]));
    assert_eq!(s["market"]["stalls"], json!(["c01", "c09", "c15"]));
    assert_eq!(s["carla"]["board"], json!(["green"]));
}

/// G.13.1, G.7.5: a wrong Carla cube or sale is refused; a Carla entry where none is due too.
#[test]
fn g13_1_carla_checks() {
    let mut e = three_turns("blank");
    e[2] = json!({"type": "carla", "space": "harvest", "cube": "orange"});
    assert_invalid(&solo(e), 2, "carla_take_wrong");
    let mut e = three_turns("blank");
    e[3] = json!({"type": "sale", "player": "carla", "customer": "c09"});
    assert_invalid(&solo(e), 3, "carla_sale_wrong");
    assert_invalid(
        &solo(vec![populate1(), json!({"type": "carla", "space": "harvest", "cube": "green"})]),
        1,
        "carla_not_due",
    );
}

/// F.3: a quill kills Carla's oldest member beside her board; the chronicle category is the
/// council (the cube came from there).
#[test]
fn f3_quill_kills_carla() {
    let s = state_until(&solo(three_turns("quill")));
    let dead: Vec<&Value> =
        s["carla"]["members"].as_array().into_iter().flatten().filter(|m| m["at"] == "chronicle:council").collect();
    assert_eq!(dead.len(), 1);
    assert_eq!(s["carla"]["fate"]["top"], json!(["quill"]));
}

/// G.13.3: one quill per cycle of three flips of a set.
#[test]
fn g13_3_fate_consistency() {
    let mut e = three_turns("quill");
    e.push(take(0, "harvest", "orange"));
    e.push(json!({"type": "fate", "set": "bottom", "result": "blank"}));
    e.push(take(0, "crafts", "orange"));
    e.push(take(0, "council", "green"));
    e.push(json!({"type": "fate", "set": "top", "result": "quill"}));
    let n = e.len() - 1;
    assert_invalid(&solo(e.clone()), n, "fate_inconsistent");
    e[n] = json!({"type": "fate", "set": "top", "result": "blank"});
    assert_valid(&solo(e));
}

/// G.3.9: an unseeded fate flip is a required entry.
#[test]
fn g3_9_fate_expected() {
    let mut e = three_turns("blank");
    e[7] = take(0, "harvest", "orange");
    assert_invalid(&solo(e), 7, "expected_entry");
}

/// F.1: Carla starts with gen 1–2 beside her board and gen 3–4 on the church building.
#[test]
fn f1_carla_setup() {
    let s = state_until(&solo(vec![]));
    let members = s["carla"]["members"].as_array().cloned().unwrap_or_default();
    assert_eq!(members.iter().filter(|m| m["at"] == "beside").count(), 7);
    assert_eq!(members.iter().filter(|m| m["at"] == "church_building").count(), 4);
}
