//! The JSON Schema of `caverna-log/1` (`docs/caverna-log-1.schema.json`).
//!
//! - the schema is itself a valid draft 2020-12 schema and compiles;
//! - every log in `tests/fixtures/games/` validates, unless its `<name>.expect.json` sidecar
//!   says `"schema_valid": false`, in which case it must not;
//! - embedded examples: one per entry type, per action and per loot shape must validate, and a
//!   set of malformed logs must be rejected;
//! - every JSON example in `docs/log-format.md` validates, and every id the schema knows is
//!   documented there.

use std::fs;
use std::path::{Path, PathBuf};

use jsonschema::Validator;
use serde_json::{json, Value};

fn package_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema_path() -> PathBuf {
    package_dir().join("../docs/caverna-log-1.schema.json")
}

fn docs_page_path() -> PathBuf {
    package_dir().join("../docs/log-format.md")
}

fn load_schema() -> Value {
    let path = schema_path();
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn validator() -> Validator {
    let schema = load_schema();
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("the schema does not compile: {e}"))
}

/// All validation errors of `instance`, one per line (empty when valid).
fn errors(validator: &Validator, instance: &Value) -> Vec<String> {
    validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

/// A minimal three-player log around `entries`.
fn log_with(entries: Vec<Value>) -> Value {
    json!({
        "format": "caverna-log/1",
        "setup": {
            "players": [{ "name": "Alice" }, { "name": "Bo" }, { "name": "Cy" }],
            "seed": 7
        },
        "entries": entries
    })
}

/// A log whose only entry is a `free` entry holding `actions`.
fn log_with_actions(actions: Vec<Value>) -> Value {
    log_with(vec![json!({ "type": "free", "player": 0, "actions": actions })])
}

/// A log whose only entry is an expedition with `loot`.
fn log_with_loot(loot: Vec<Value>) -> Value {
    log_with(vec![json!({
        "type": "place", "player": 0, "space": "exploration",
        "actions": [{ "do": "expedition", "loot": loot }]
    })])
}

// ---------------------------------------------------------------------------------------------
// The schema itself

#[test]
fn schema_is_a_valid_draft_2020_12_schema() {
    let schema = load_schema();
    if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
        panic!("schema is not a valid draft 2020-12 schema: {e}");
    }
    assert_eq!(
        schema["$schema"],
        json!("https://json-schema.org/draft/2020-12/schema"),
        "the schema must declare draft 2020-12"
    );
    validator();
}

// ---------------------------------------------------------------------------------------------
// Fixtures

#[test]
fn fixture_logs_match_their_sidecars() {
    let validator = validator();
    let dir = package_dir().join("fixtures/games");
    let mut logs: Vec<PathBuf> = match fs::read_dir(&dir) {
        Ok(read) => read
            .map(|entry| entry.expect("readable directory entry").path())
            .filter(|path| {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                name.ends_with(".json") && !name.ends_with(".expect.json")
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    logs.sort();

    let mut failures = Vec::new();
    for log in &logs {
        let name = log.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".json");
        let sidecar = log.with_file_name(format!("{stem}.expect.json"));
        let expect_valid = match fs::read_to_string(&sidecar) {
            Ok(text) => {
                let expect: Value =
                    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", sidecar.display()));
                expect.get("schema_valid") != Some(&Value::Bool(false))
            }
            Err(_) => true,
        };
        let text = fs::read_to_string(log).expect("readable fixture");
        // A log that is not even JSON cannot satisfy the schema.
        let found = match serde_json::from_str::<Value>(&text) {
            Ok(instance) => errors(&validator, &instance),
            Err(e) => vec![format!("not JSON: {e}")],
        };
        match (expect_valid, found.is_empty()) {
            (true, false) => {
                failures.push(format!("{name}: expected schema-valid, got:\n    {}", found.join("\n    ")))
            }
            (false, true) => {
                failures.push(format!("{name}: sidecar says \"schema_valid\": false, but the log validates"))
            }
            _ => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixture logs disagree with the schema:\n{}",
        failures.len(),
        logs.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Embedded examples that must validate

fn valid_examples() -> Vec<(&'static str, Value)> {
    let mut examples: Vec<(&'static str, Value)> = vec![
        // Envelope and setup
        (
            "full envelope",
            json!({
                "format": "caverna-log/1",
                "meta": { "id": "wc2026-r3-t7", "tournament": "wc2026",
                          "played_at": "2026-05-01T18:00:00Z" },
                "setup": {
                    "players": [{ "name": "Alice" }, { "name": "Bo" }, { "name": "Cy" }],
                    "furnishings": "full",
                    "round_cards": ["sheep_farming", "blacksmithing", "ore_mine_construction",
                                    "wish_for_children", "ruby_mine_construction",
                                    "donkey_farming", "exploration", "ore_delivery",
                                    "family_life", "ore_trading", "ruby_delivery", "adventure"],
                    "harvest_tokens": ["green", "red", "green", "green", "red", "green", "red"],
                    "seed": 7
                },
                "entries": [],
                "claimed": { "scores": [87, 65, -3] }
            }),
        ),
        (
            "empty meta, seed only, introductory set",
            json!({
                "format": "caverna-log/1",
                "meta": {},
                "setup": { "players": [{ "name": "Alice" }, { "name": "Bo" }],
                           "furnishings": "introductory", "seed": 0 },
                "entries": []
            }),
        ),
        (
            "solo with the fixed card order and no harvest tokens",
            json!({
                "format": "caverna-log/1",
                "setup": {
                    "players": [{ "name": "Solo" }],
                    "round_cards": ["blacksmithing", "sheep_farming", "ore_mine_construction",
                                    "wish_for_children", "donkey_farming",
                                    "ruby_mine_construction", "ore_delivery", "family_life",
                                    "ore_trading", "adventure", "ruby_delivery"]
                },
                "entries": []
            }),
        ),
        (
            "seven players, harvest tokens given, round cards from the seed",
            json!({
                "format": "caverna-log/1",
                "setup": {
                    "players": [{ "name": "A" }, { "name": "B" }, { "name": "C" }, { "name": "D" },
                                { "name": "E" }, { "name": "F" }, { "name": "G" }],
                    "harvest_tokens": ["red", "red", "green", "green", "red", "green", "green"],
                    "seed": 18446744073709551615u64
                },
                "entries": []
            }),
        ),
        // Entry types
        (
            "place",
            log_with(vec![json!({
                "type": "place", "player": 1, "space": "excavation", "dwarf": 0,
                "actions": [{ "do": "twin", "cells": [[1, 3], [1, 4]], "kinds": ["cavern", "tunnel"] }]
            })]),
        ),
        (
            "place out of order with a ruby, nothing but the accumulated goods",
            log_with(vec![json!({
                "type": "place", "player": 6, "space": "logging", "dwarf": 5, "ruby": true,
                "actions": []
            })]),
        ),
        (
            "free",
            log_with(vec![json!({ "type": "free", "player": 0,
                                  "actions": [{ "do": "convert", "goods": { "grain": 2 } }] })]),
        ),
        (
            "harvest_choice",
            log_with(vec![
                json!({ "type": "harvest_choice", "player": 0, "phase": "breeding" }),
                json!({ "type": "harvest_choice", "player": 1, "phase": "field" }),
            ]),
        ),
        (
            "feed",
            log_with(vec![json!({ "type": "feed", "player": 2,
                                  "actions": [{ "do": "use", "tile": "working_cave", "pay": "wood" }] })]),
        ),
        (
            "breed",
            log_with(vec![
                json!({ "type": "breed", "player": 0, "animals": ["sheep", "cattle"] }),
                json!({ "type": "breed", "player": 1, "animals": [] }),
            ]),
        ),
        ("keep", log_with(vec![json!({ "type": "keep", "player": 0, "spaces": ["logging", "ore_mining"] })])),
        // Actions
        (
            "twin, every kinds order",
            log_with_actions(vec![
                json!({ "do": "twin", "cells": [[1, 3], [1, 4]], "kinds": ["cavern", "tunnel"] }),
                json!({ "do": "twin", "cells": [[0, 3], [0, 4]], "kinds": ["tunnel", "cavern"] }),
                json!({ "do": "twin", "cells": [[2, 4], [2, 5]], "kinds": ["cavern", "cavern"] }),
                json!({ "do": "twin", "cells": [[3, 2], [3, 1]], "kinds": ["meadow", "field"] }),
                json!({ "do": "twin", "cells": [[2, 2], [2, 1]], "kinds": ["field", "meadow"] }),
            ]),
        ),
        (
            "twin overhanging into the Office-room ring",
            log_with_actions(vec![
                json!({ "do": "twin", "cells": [[0, 5], [0, 6]], "kinds": ["cavern", "tunnel"] }),
                json!({ "do": "twin", "cells": [[-1, 0], [0, 0]], "kinds": ["meadow", "field"] }),
                json!({ "do": "twin", "cells": [[4, -1], [3, -1]], "kinds": ["field", "meadow"] }),
            ]),
        ),
        (
            "ore_mine",
            log_with_actions(vec![
                json!({ "do": "ore_mine", "cells": [[1, 4], [1, 5]], "kinds": ["ore_mine", "deep_tunnel"] }),
                json!({ "do": "ore_mine", "cells": [[0, 4], [0, 5]], "kinds": ["deep_tunnel", "ore_mine"] }),
            ]),
        ),
        ("ruby_mine", log_with_actions(vec![json!({ "do": "ruby_mine", "at": [1, 4] })])),
        (
            "furnish",
            log_with_actions(vec![
                json!({ "do": "furnish", "tile": "dwelling", "at": [1, 3] }),
                json!({ "do": "furnish", "tile": "mixed_dwelling", "at": [2, 3],
                        "pay": { "wood": 4, "stone": 4, "ore": 1 } }),
            ]),
        ),
        ("grow", log_with_actions(vec![json!({ "do": "grow" })])),
        (
            "sow",
            log_with_actions(vec![
                json!({ "do": "sow", "grain": [[3, 2], [2, 1]], "vegetable": [[3, 1]] }),
                json!({ "do": "sow", "vegetable": [[3, 1], [3, 0]] }),
                json!({ "do": "sow" }),
            ]),
        ),
        (
            "fence",
            log_with_actions(vec![
                json!({ "do": "fence", "cells": [[2, 2]] }),
                json!({ "do": "fence", "cells": [[1, 1], [1, 2]] }),
            ]),
        ),
        ("stable", log_with_actions(vec![json!({ "do": "stable", "at": [0, 0] })])),
        (
            "forge",
            log_with_actions(vec![json!({ "do": "forge", "strength": 1 }), json!({ "do": "forge", "strength": 8 })]),
        ),
        (
            "expedition",
            log_with_actions(vec![
                json!({ "do": "expedition",
                        "loot": [{ "item": "loot_wood" }, { "item": "loot_stable", "at": [2, 0] }] }),
                json!({ "do": "expedition", "loot": [] }),
            ]),
        ),
        (
            "trade_ore",
            log_with_actions(vec![json!({ "do": "trade_ore", "times": 1 }), json!({ "do": "trade_ore", "times": 3 })]),
        ),
        (
            "buy",
            log_with_actions(vec![
                json!({ "do": "buy", "goods": ["dog", "sheep", "grain"] }),
                json!({ "do": "buy", "goods": [] }),
            ]),
        ),
        ("gain", log_with_actions(vec![json!({ "do": "gain" })])),
        ("dog", log_with_actions(vec![json!({ "do": "dog" })])),
        (
            "imitate, nested",
            log_with(vec![json!({
                "type": "place", "player": 2, "space": "imitation_2",
                "actions": [{ "do": "imitate", "space": "imitation",
                              "actions": [{ "do": "imitate", "space": "housework",
                                            "actions": [{ "do": "dog" }] }] }]
            })]),
        ),
        (
            "convert",
            log_with_actions(vec![
                json!({ "do": "convert", "goods": { "donkey": 2, "ruby": 1, "gold": 3, "vegetable": 0 } }),
            ]),
        ),
        ("buy_food", log_with_actions(vec![json!({ "do": "buy_food", "food": 2 })])),
        ("ruby_trade", log_with_actions(vec![json!({ "do": "ruby_trade", "goods": { "cattle": 1, "dog": 1 } })])),
        (
            "ruby_tile",
            log_with_actions(vec![
                json!({ "do": "ruby_tile", "tile": "meadow", "at": [2, 2] }),
                json!({ "do": "ruby_tile", "tile": "field", "at": [3, 1] }),
                json!({ "do": "ruby_tile", "tile": "tunnel", "at": [1, 3] }),
                json!({ "do": "ruby_tile", "tile": "cavern", "at": [0, 3] }),
            ]),
        ),
        (
            "use",
            log_with_actions(vec![
                json!({ "do": "use", "tile": "trader" }),
                json!({ "do": "use", "tile": "beer_parlor", "times": 2, "for": "gold" }),
                json!({ "do": "use", "tile": "beer_parlor", "for": "food" }),
                json!({ "do": "use", "tile": "working_cave", "pay": "ore" }),
                json!({ "do": "use", "tile": "peaceful_cave", "dwarf": 3 }),
            ]),
        ),
        ("release", log_with_actions(vec![json!({ "do": "release", "animals": { "sheep": 1, "dog": 2 } })])),
        // Loot shapes
        (
            "loot without parameters",
            log_with_loot(vec![
                json!({ "item": "increase_all_weapons" }),
                json!({ "item": "loot_dog" }),
                json!({ "item": "loot_wood" }),
                json!({ "item": "loot_sheep" }),
            ]),
        ),
        (
            "more loot without parameters",
            log_with_loot(vec![
                json!({ "item": "loot_grain" }),
                json!({ "item": "loot_donkey" }),
                json!({ "item": "loot_stone" }),
                json!({ "item": "loot_vegetable" }),
            ]),
        ),
        (
            "still more loot without parameters",
            log_with_loot(vec![
                json!({ "item": "loot_ore_2" }),
                json!({ "item": "loot_boar" }),
                json!({ "item": "loot_gold_2" }),
                json!({ "item": "loot_cattle" }),
            ]),
        ),
        (
            "loot_furnish_cavern",
            log_with_loot(vec![
                json!({ "item": "loot_furnish_cavern", "tile": "guest_room", "at": [1, 3] }),
                json!({ "item": "loot_furnish_cavern", "tile": "dwelling", "at": [1, 4] }),
            ]),
        ),
        (
            "loot_dwelling_2w2s",
            log_with_loot(vec![json!({ "item": "loot_dwelling_2w2s", "tile": "dwelling", "at": [0, 4] })]),
        ),
        (
            "loot placed at one cell",
            log_with_loot(vec![
                json!({ "item": "loot_stable", "at": [0, 0] }),
                json!({ "item": "loot_tunnel", "at": [0, 3] }),
                json!({ "item": "loot_meadow", "at": [1, 0] }),
                json!({ "item": "loot_field", "at": [2, 0] }),
            ]),
        ),
        ("loot_cavern", log_with_loot(vec![json!({ "item": "loot_cavern", "at": [1, 5] })])),
        (
            "loot pastures",
            log_with_loot(vec![
                json!({ "item": "loot_small_pasture", "cells": [[1, 0]] }),
                json!({ "item": "loot_large_pasture", "cells": [[0, 0], [0, 1]] }),
            ]),
        ),
        (
            "loot_sow",
            log_with_loot(vec![json!({ "item": "loot_sow", "grain": [[3, 2]], "vegetable": [[3, 1], [2, 1]] })]),
        ),
        ("loot_breed_2", log_with_loot(vec![json!({ "item": "loot_breed_2", "animals": ["sheep", "boar"] })])),
    ];
    // Free actions written inside a placement (a ruby trade for a field before sowing).
    examples.push((
        "free actions inside a placement",
        log_with(vec![json!({
            "type": "place", "player": 0, "space": "slash_and_burn",
            "actions": [
                { "do": "twin", "cells": [[3, 2], [2, 2]], "kinds": ["meadow", "field"] },
                { "do": "ruby_trade", "goods": { "grain": 1 } },
                { "do": "sow", "grain": [[2, 2]] },
                { "do": "convert", "goods": { "boar": 1 } }
            ]
        })]),
    ));
    examples
}

#[test]
fn embedded_examples_validate() {
    let validator = validator();
    let mut failures = Vec::new();
    for (name, log) in valid_examples() {
        let found = errors(&validator, &log);
        if !found.is_empty() {
            failures.push(format!("{name}:\n    {}", found.join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "examples rejected:\n{}", failures.join("\n"));
}

#[test]
fn embedded_examples_cover_every_entry_type_action_and_loot_item() {
    let schema = load_schema();
    let defs = &schema["$defs"];
    let mut seen_types = Vec::new();
    let mut seen_dos = Vec::new();
    let mut seen_items = Vec::new();
    fn walk(v: &Value, types: &mut Vec<String>, dos: &mut Vec<String>, items: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (key, out) in [("type", &mut *types), ("do", &mut *dos), ("item", &mut *items)] {
                    if let Some(Value::String(s)) = map.get(key) {
                        out.push(s.clone());
                    }
                }
                map.values().for_each(|child| walk(child, types, dos, items));
            }
            Value::Array(list) => list.iter().for_each(|child| walk(child, types, dos, items)),
            _ => {}
        }
    }
    for (_, log) in valid_examples() {
        walk(&log["entries"], &mut seen_types, &mut seen_dos, &mut seen_items);
    }
    let enum_of = |v: &Value| -> Vec<String> {
        v["enum"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect()
    };
    let check = |what: &str, all: Vec<String>, seen: &[String]| {
        let missing: Vec<_> = all.iter().filter(|id| !seen.contains(id)).collect();
        assert!(missing.is_empty(), "no valid example for {what} {missing:?}");
    };
    check("entry type", enum_of(&defs["entry"]["properties"]["type"]), &seen_types);
    check("action", enum_of(&defs["action"]["properties"]["do"]), &seen_dos);
    check("loot item", enum_of(&defs["loot_id"]), &seen_items);
}

// ---------------------------------------------------------------------------------------------
// Embedded examples that must be rejected

fn invalid_examples() -> Vec<(&'static str, Value)> {
    let base = log_with(vec![]);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut log = base.clone();
        f(&mut log);
        log
    };
    let action = |a: Value| log_with_actions(vec![a]);
    let loot = |l: Value| log_with_loot(vec![l]);
    vec![
        // Envelope
        ("unknown top-level field", with(&|l| l["comment"] = json!("hi"))),
        ("wrong format string", with(&|l| l["format"] = json!("caverna-log/2"))),
        (
            "missing format",
            with(&|l| {
                l.as_object_mut().unwrap().remove("format");
            }),
        ),
        (
            "missing setup",
            with(&|l| {
                l.as_object_mut().unwrap().remove("setup");
            }),
        ),
        (
            "missing entries",
            with(&|l| {
                l.as_object_mut().unwrap().remove("entries");
            }),
        ),
        ("unknown meta field", with(&|l| l["meta"] = json!({ "idd": "x" }))),
        ("played_at not a date-time", with(&|l| l["meta"] = json!({ "played_at": "yesterday" }))),
        ("claimed score not an integer", with(&|l| l["claimed"] = json!({ "scores": [87.5] }))),
        ("claimed without scores", with(&|l| l["claimed"] = json!({}))),
        // Setup
        ("unknown setup field (typo)", with(&|l| l["setup"]["seeds"] = json!(7))),
        ("no players", with(&|l| l["setup"]["players"] = json!([]))),
        (
            "eight players",
            with(&|l| {
                l["setup"]["players"] = json!([
            { "name": "A" }, { "name": "B" }, { "name": "C" }, { "name": "D" },
            { "name": "E" }, { "name": "F" }, { "name": "G" }, { "name": "H" }])
            }),
        ),
        ("player without name", with(&|l| l["setup"]["players"][0] = json!({ "nick": "A" }))),
        ("unknown furnishing set", with(&|l| l["setup"]["furnishings"] = json!("basic"))),
        ("urgent wish is not a round card", with(&|l| l["setup"]["round_cards"] = json!(["urgent_wish_for_children"]))),
        ("duplicate round card", with(&|l| l["setup"]["round_cards"] = json!(["blacksmithing", "blacksmithing"]))),
        ("unknown harvest token", with(&|l| l["setup"]["harvest_tokens"] = json!(["yellow"]))),
        ("negative seed", with(&|l| l["setup"]["seed"] = json!(-1))),
        (
            "no seed, no round cards, no harvest tokens",
            with(&|l| {
                l["setup"].as_object_mut().unwrap().remove("seed");
            }),
        ),
        (
            "round cards omitted without a seed",
            with(&|l| {
                l["setup"].as_object_mut().unwrap().remove("seed");
                l["setup"]["harvest_tokens"] = json!(["green", "red", "green", "green", "red", "green", "red"]);
            }),
        ),
        (
            "harvest tokens omitted without a seed (3 players)",
            with(&|l| {
                l["setup"].as_object_mut().unwrap().remove("seed");
                l["setup"]["round_cards"] = json!(["blacksmithing"]);
            }),
        ),
        (
            "solo round cards omitted without a seed",
            with(&|l| {
                l["setup"] = json!({ "players": [{ "name": "Solo" }] });
            }),
        ),
        (
            "loot_furnish_cavern with pay",
            log_with_loot(vec![json!({
            "item": "loot_furnish_cavern", "tile": "dwelling", "at": [1, 4], "pay": { "ore": 1 } })]),
        ),
        // Entries
        ("missing player", log_with(vec![json!({ "type": "free", "actions": [] })])),
        ("negative player", log_with(vec![json!({ "type": "free", "player": -1, "actions": [] })])),
        ("unknown entry type", log_with(vec![json!({ "type": "pass", "player": 0 })])),
        (
            "unknown space id",
            log_with(vec![json!({
            "type": "place", "player": 0, "space": "mining", "actions": [] })]),
        ),
        (
            "imitation_4 does not exist",
            log_with(vec![json!({
            "type": "place", "player": 0, "space": "imitation_4", "actions": [] })]),
        ),
        (
            "ruby not a boolean",
            log_with(vec![json!({
            "type": "place", "player": 0, "space": "logging", "ruby": 1, "actions": [] })]),
        ),
        (
            "unknown field in an entry",
            log_with(vec![json!({
            "type": "place", "player": 0, "space": "logging", "actions": [], "round": 3 })]),
        ),
        (
            "harvest_choice phase",
            log_with(vec![json!({
            "type": "harvest_choice", "player": 0, "phase": "feeding" })]),
        ),
        ("breed a dog", log_with(vec![json!({ "type": "breed", "player": 0, "animals": ["dog"] })])),
        (
            "keep an unknown space",
            log_with(vec![json!({
            "type": "keep", "player": 0, "spaces": ["forest"] })]),
        ),
        // Actions
        ("unknown action do", action(json!({ "do": "steal" }))),
        ("unknown field in an action", action(json!({ "do": "grow", "twice": true }))),
        ("unknown tile id", action(json!({ "do": "furnish", "tile": "dwelling_deluxe", "at": [1, 3] }))),
        (
            "entry_dwelling is not a furnishing tile",
            action(json!({
            "do": "furnish", "tile": "entry_dwelling", "at": [1, 3] })),
        ),
        ("coordinate out of range (row 5)", action(json!({ "do": "stable", "at": [5, 0] }))),
        ("coordinate out of range (col 7)", action(json!({ "do": "stable", "at": [0, 7] }))),
        ("coordinate out of range (row -2)", action(json!({ "do": "stable", "at": [-2, 0] }))),
        ("coordinate with three numbers", action(json!({ "do": "stable", "at": [0, 0, 0] }))),
        ("coordinate with one number", action(json!({ "do": "stable", "at": [0] }))),
        ("coordinate not integers", action(json!({ "do": "stable", "at": [0.5, 1] }))),
        ("strength 9", action(json!({ "do": "forge", "strength": 9 }))),
        ("strength 0", action(json!({ "do": "forge", "strength": 0 }))),
        (
            "twin kinds tunnel/tunnel",
            action(json!({
            "do": "twin", "cells": [[1, 3], [1, 4]], "kinds": ["tunnel", "tunnel"] })),
        ),
        (
            "twin kinds meadow/cavern",
            action(json!({
            "do": "twin", "cells": [[1, 3], [1, 4]], "kinds": ["meadow", "cavern"] })),
        ),
        (
            "twin with one cell",
            action(json!({
            "do": "twin", "cells": [[1, 3]], "kinds": ["cavern", "tunnel"] })),
        ),
        (
            "ore_mine kinds",
            action(json!({
            "do": "ore_mine", "cells": [[1, 3], [1, 4]], "kinds": ["ore_mine", "ore_mine"] })),
        ),
        (
            "sow three grain fields",
            action(json!({
            "do": "sow", "grain": [[3, 2], [2, 2], [1, 2]] })),
        ),
        ("fence three cells", action(json!({ "do": "fence", "cells": [[0, 0], [0, 1], [0, 2]] }))),
        ("fence no cell", action(json!({ "do": "fence", "cells": [] }))),
        ("trade_ore 4 times", action(json!({ "do": "trade_ore", "times": 4 }))),
        ("buy the same good twice", action(json!({ "do": "buy", "goods": ["sheep", "sheep"] }))),
        ("buy an unknown good", action(json!({ "do": "buy", "goods": ["pig"] }))),
        ("convert an unknown good", action(json!({ "do": "convert", "goods": { "pig": 1 } }))),
        ("convert a negative count", action(json!({ "do": "convert", "goods": { "grain": -1 } }))),
        ("buy_food 0", action(json!({ "do": "buy_food", "food": 0 }))),
        ("ruby_tile pasture", action(json!({ "do": "ruby_tile", "tile": "pasture", "at": [0, 0] }))),
        ("use for wood", action(json!({ "do": "use", "tile": "beer_parlor", "for": "wood" }))),
        ("use pay gold", action(json!({ "do": "use", "tile": "working_cave", "pay": "gold" }))),
        ("use times 0", action(json!({ "do": "use", "tile": "trader", "times": 0 }))),
        ("release a ruby", action(json!({ "do": "release", "animals": { "ruby": 1 } }))),
        (
            "typo inside a nested imitation",
            action(json!({
            "do": "imitate", "space": "housework", "actions": [{ "do": "dog", "n": 1 }] })),
        ),
        // Loot
        ("unknown loot item", loot(json!({ "item": "loot_ruby" }))),
        ("loot_stable without at", loot(json!({ "item": "loot_stable" }))),
        ("loot_wood with a parameter", loot(json!({ "item": "loot_wood", "at": [0, 0] }))),
        (
            "loot_dwelling_2w2s of another tile",
            loot(json!({
            "item": "loot_dwelling_2w2s", "tile": "mixed_dwelling", "at": [1, 3] })),
        ),
        (
            "loot_small_pasture with two cells",
            loot(json!({
            "item": "loot_small_pasture", "cells": [[0, 0], [0, 1]] })),
        ),
        (
            "loot_breed_2 with three types",
            loot(json!({
            "item": "loot_breed_2", "animals": ["sheep", "boar", "cattle"] })),
        ),
        (
            "five loot items",
            log_with_loot(vec![
                json!({ "item": "loot_dog" }),
                json!({ "item": "loot_wood" }),
                json!({ "item": "loot_sheep" }),
                json!({ "item": "loot_grain" }),
                json!({ "item": "loot_stone" }),
            ]),
        ),
    ]
}

#[test]
fn embedded_invalid_examples_are_rejected() {
    let validator = validator();
    let examples = invalid_examples();
    assert!(examples.len() >= 8);
    let accepted: Vec<&str> =
        examples.iter().filter(|(_, log)| validator.is_valid(log)).map(|(name, _)| *name).collect();
    assert!(accepted.is_empty(), "malformed logs accepted: {accepted:#?}");
}

// ---------------------------------------------------------------------------------------------
// The prose page

/// The contents of every ```json block of the page.
fn json_blocks(page: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        let fence = line.trim_start();
        match &mut current {
            None if fence.starts_with("```json") => current = Some(String::new()),
            Some(block) if fence.starts_with("```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

#[test]
fn documented_examples_validate() {
    let validator = validator();
    let page = fs::read_to_string(docs_page_path()).expect("docs/log-format.md");
    let blocks = json_blocks(&page);
    assert!(!blocks.is_empty(), "no ```json blocks in docs/log-format.md");
    let mut failures = Vec::new();
    let mut complete_logs = 0;
    for (i, block) in blocks.iter().enumerate() {
        // A block may hold several values (one entry per line).
        for value in serde_json::Deserializer::from_str(block).into_iter::<Value>() {
            let value = match value {
                Ok(v) => v,
                Err(e) => {
                    failures.push(format!("block {i}: not JSON: {e}\n{block}"));
                    break;
                }
            };
            let log = if value.get("format").is_some() {
                complete_logs += 1;
                value.clone()
            } else if value.get("players").is_some() {
                json!({ "format": "caverna-log/1", "setup": value, "entries": [] })
            } else if value.get("type").is_some() {
                log_with(vec![value.clone()])
            } else if value.get("do").is_some() {
                log_with_actions(vec![value.clone()])
            } else if value.get("item").is_some() {
                log_with_loot(vec![value.clone()])
            } else {
                failures.push(format!("block {i}: cannot tell what this is: {value}"));
                continue;
            };
            let found = errors(&validator, &log);
            if !found.is_empty() {
                failures.push(format!("block {i}: {value}\n    {}", found.join("\n    ")));
            }
        }
    }
    assert!(failures.is_empty(), "documented examples rejected:\n{}", failures.join("\n"));
    assert!(complete_logs >= 1, "the page has no complete example log");
}

#[test]
fn every_schema_id_is_documented() {
    let schema = load_schema();
    let page = fs::read_to_string(docs_page_path()).expect("docs/log-format.md");
    let defs = &schema["$defs"];
    let mut missing = Vec::new();
    for def in ["action_space_id", "round_card_id", "furnishing_id", "loot_id", "goods_id"] {
        for id in defs[def]["enum"].as_array().unwrap() {
            let id = id.as_str().unwrap();
            if !page.contains(&format!("`{id}`")) {
                missing.push(format!("{def}: {id}"));
            }
        }
    }
    for id in defs["action"]["properties"]["do"]["enum"].as_array().unwrap() {
        let id = id.as_str().unwrap();
        if !page.contains(&format!("`{id}`")) {
            missing.push(format!("action: {id}"));
        }
    }
    assert!(missing.is_empty(), "ids in the schema but not in docs/log-format.md: {missing:#?}");
}
