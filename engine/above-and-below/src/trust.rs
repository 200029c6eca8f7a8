//! The trust report of a replay: what the engine checked itself and what it had to take from
//! the log as declared. An Above and Below log declares its own card catalogue, board numbers
//! and Adventure Book content (`docs/rules/above-and-below.md`, "Component data"), so a valid
//! replay proves only that the entries follow the rules *given those declarations*; a reader
//! of a verdict needs to see how much rested on them.
//!
//! Shape:
//!
//! ```text
//! {
//!   "entries_checked": n,
//!   "declared": { "catalogue": source | null, "board": source | null } | null,
//!   "players": [ {
//!       "seat", "name",
//!       "verified": { "explorations", "paragraphs_checked" },
//!       "trusted":  { "custom_bonuses", "card_bonuses", "custom_outcomes", "custom_credits",
//!                     "credit_coins", "credit_goods", "credit_potions", "credit_cider",
//!                     "credit_reputation", "credit_discount", "credit_beds",
//!                     "card_vp_custom", "encounter_coins", "encounter_goods",
//!                     "encounter_potions", "encounter_cider", "encounter_reputation",
//!                     "encounter_villagers", "encounter_caves", "encounter_cards" }
//!   } ],
//!   "warnings": [ { "code", "entry" | null, "player" | null, "message" } ]
//! }
//! ```
//!
//! `entries_checked` is how many entries the rules checked (every entry of a valid log; those
//! before the illegal one of an invalid log). `declared` holds the `source` texts of the
//! catalogue and board numbers the log declared (null without a valid setup): every verdict
//! rests on them. `verified` counts what the rules checked against the log's own data (each
//! exploration's dice, thresholds and lanterns; first paragraphs matched against a cave's
//! table). `trusted`
//! counts what the engine applied as the log declared it: `custom` effects and bonuses, and
//! every encounter reward (the Adventure Book's content is not available to the project).
//! `players` is empty without a valid setup; `warnings` are the G.3 warnings (never errors).

use serde_json::{json, Value};

use crate::game::{Game, Player, Trust};
use crate::replay::Replay;

/// The trust report of a replay (shape in the module documentation).
pub fn report(r: &Replay) -> Value {
    let Some(game) = r.game.as_ref() else {
        let empty: [Value; 0] = [];
        return json!({ "entries_checked": 0, "declared": Value::Null, "players": empty, "warnings": warnings(r) });
    };
    let players: Vec<Value> = game.players().iter().enumerate().map(|(seat, p)| player(seat, p)).collect();
    json!({
        "entries_checked": r.entries_applied,
        "declared": declared(game),
        "players": players,
        "warnings": warnings(r),
    })
}

/// Where the log says its component data comes from (its `source` fields, verbatim).
fn declared(game: &Game) -> Value {
    let setup = game.setup();
    json!({
        "catalogue": setup.catalogue.source,
        "board": setup.board.source,
    })
}

fn player(seat: usize, p: &Player) -> Value {
    let t = &p.trust;
    json!({
        "seat": seat,
        "name": p.name,
        "verified": {
            "explorations": t.explorations,
            "paragraphs_checked": t.paragraphs_checked,
        },
        "trusted": trusted(t),
    })
}

fn trusted(t: &Trust) -> Value {
    json!({
        "custom_bonuses": t.custom_bonuses,
        "card_bonuses": t.card_bonuses,
        "custom_outcomes": t.custom_outcomes,
        "custom_credits": t.custom_credits,
        "credit_coins": t.credit_coins,
        "credit_goods": t.credit_goods,
        "credit_potions": t.credit_potions,
        "credit_cider": t.credit_cider,
        "credit_reputation": t.credit_reputation,
        "credit_discount": t.credit_discount,
        "credit_beds": t.credit_beds,
        "card_vp_custom": t.card_vp_custom,
        "encounter_coins": t.encounter_coins,
        "encounter_goods": t.encounter_goods,
        "encounter_potions": t.encounter_potions,
        "encounter_cider": t.encounter_cider,
        "encounter_reputation": t.encounter_reputation,
        "encounter_villagers": t.encounter_villagers,
        "encounter_caves": t.encounter_caves,
        "encounter_cards": t.encounter_cards,
    })
}

fn warnings(r: &Replay) -> Vec<Value> {
    r.warnings
        .iter()
        .map(|w| json!({ "code": w.code, "entry": w.entry, "player": w.player, "message": w.message }))
        .collect()
}
