//! Setup (`docs/rules/village.md` B, G.1): envelope, players, display, compensation, components.

use serde_json::json;

use crate::common::*;

fn setup_error(f: impl FnOnce(&mut serde_json::Value)) -> Option<String> {
    let mut log = game2(vec![]);
    f(&mut log);
    let r = replay(&log);
    r.error.filter(|e| e.entry.is_none()).map(|e| e.code.as_str().to_owned())
}

/// G.1.1 – G.1.4, G.1.6, G.1.7: each setup fault has its code, at `setup` (index −1).
#[test]
fn g1_setup_faults_table() {
    type Edit = fn(&mut serde_json::Value);
    let cases: Vec<(&str, Edit, &str)> = vec![
        ("wrong format", |l| l["format"] = json!("caverna-log/1"), "bad_format"),
        ("unknown top-level field", |l| l["extra"] = json!(1), "unknown_field"),
        ("unknown setup field", |l| l["setup"]["colour"] = json!(1), "unknown_field"),
        ("no players", |l| l["setup"]["players"] = json!([]), "bad_setup"),
        (
            "six players",
            |l| l["setup"]["players"] = json!([{"name":"a","color":"red"},{"name":"b","color":"blue"},{"name":"c","color":"white","start_cube":"pink"},{"name":"d","color":"yellow","start_cube":"pink"},{"name":"e","color":"purple"},{"name":"f","color":"red"}]),
            "bad_setup",
        ),
        ("same colour twice", |l| l["setup"]["players"][1]["color"] = json!("blue"), "bad_setup"),
        ("unknown colour", |l| l["setup"]["players"][1]["color"] = json!("green"), "unknown_id"),
        ("solo block with 2 players", |l| l["setup"]["solo"] = json!({"carla_color": "white"}), "bad_setup"),
        (
            "four stalls with 2 players",
            |l| l["setup"]["customers"]["stalls"] = json!(["c04", "c09", "c15", "c02"]),
            "bad_setup",
        ),
        ("tile shown twice", |l| l["setup"]["customers"]["queue"][0] = json!("c04"), "bad_setup"),
        ("customer c25", |l| l["setup"]["customers"]["queue"][0] = json!("c25"), "unknown_id"),
        (
            "no display without a seed",
            |l| {
                l["setup"].as_object_mut().map(|o| o.remove("customers"));
            },
            "bad_setup",
        ),
        ("start cube for seat 1", |l| l["setup"]["players"][1]["start_cube"] = json!("green"), "bad_setup"),
        ("unknown component table", |l| l["setup"]["components"] = json!("village-bigbox/9"), "unknown_id"),
        ("wainwright training 3", |l| l["setup"]["components"]["training"]["wainwright"] = json!(3), "bad_components"),
        ("council time 4", |l| l["setup"]["components"]["council_time"]["2"] = json!(4), "bad_components"),
        (
            "church grain stage 2 = 2",
            |l| l["setup"]["components"]["church_grain"] = json!({"2": 2, "3": 1, "4": 1}),
            "bad_components",
        ),
        (
            "church grain total 5",
            |l| l["setup"]["components"]["church_grain"] = json!({"2": 1, "3": 2, "4": 2}),
            "bad_components",
        ),
        (
            "2-player card with 2 market cubes",
            |l| l["setup"]["components"]["setup_cards"]["2"]["spaces"]["market"] = json!(2),
            "bad_components",
        ),
        (
            "3-player card total 22",
            |l| l["setup"]["components"]["setup_cards"]["3"]["spaces"]["market"] = json!(3),
            "bad_components",
        ),
        (
            "three marriage spaces",
            |l| l["setup"]["components"]["chronicle"]["farm"][0] = json!("marriage"),
            "bad_components",
        ),
        (
            "a chronicle category missing",
            |l| {
                l["setup"]["components"]["chronicle"].as_object_mut().map(|o| o.remove("church"));
            },
            "bad_components",
        ),
        (
            "travel before council broken",
            |l| {
                l["setup"]["components"]["carla"]["order"] =
                    json!(["harvest", "family", "crafts", "market", "council", "travel", "church"])
            },
            "bad_components",
        ),
        (
            "three cities next to the village",
            |l| {
                l["setup"]["components"]["travel"]["paths"]
                    .as_array_mut()
                    .map(|a| a.push(json!({"between": ["village", "east"]})))
                    .unwrap_or(())
            },
            "bad_components",
        ),
        (
            "fate boxes repeated",
            |l| l["setup"]["components"]["carla"]["fate"]["top"] = json!([1, 1, 2]),
            "bad_components",
        ),
        ("seed above 2^53", |l| l["setup"]["seed"] = json!(9007199254740992u64), "bad_setup"),
    ];
    for (what, edit, code) in cases {
        assert_eq!(setup_error(edit).as_deref(), Some(code), "{what}");
    }
}

/// B.3: compensation — seat 1 one grain, seats 2/3 a cube, seat 4 a coin; off on request.
#[test]
fn b3_compensation_per_seat() {
    let log = json!({ "format": "village-log/1", "setup": {
        "players": [ {"name": "A", "color": "red"}, {"name": "B", "color": "blue"},
                     {"name": "C", "color": "white", "start_cube": "pink"},
                     {"name": "D", "color": "yellow", "start_cube": "orange"}, {"name": "E", "color": "purple"} ],
        "customers": { "stalls": ["c01", "c02", "c03", "c04", "c05"], "queue": ["c06", "c07", "c08", "c09", "c10"] },
        "components": synthetic() }, "entries": [] });
    let s = state_until(&log);
    let p = &s["players"];
    assert_eq!((p[0]["grain"].clone(), p[0]["coins"].clone()), (json!(0), json!(1)));
    assert_eq!(p[1]["grain"], json!(1));
    assert_eq!(p[2]["cubes"], json!({"pink": 1}));
    assert_eq!(p[3]["cubes"], json!({"orange": 1}));
    assert_eq!(p[4]["coins"], json!(2));
    let mut off = log.clone();
    off["setup"]["compensation"] = json!(false);
    assert_eq!(error(&off).map(|e| e.1).as_deref(), Some("bad_setup"), "start cubes without compensation");
    for i in [2, 3] {
        off["setup"]["players"][i].as_object_mut().map(|o| o.remove("start_cube"));
    }
    let s = state_until(&off);
    assert_eq!(s["players"][1]["grain"], json!(0));
    assert_eq!(s["players"][4]["coins"], json!(1));
}

/// B.2: each player starts with 4 gen-1 members on the farm, 7 in the reserve and 1 coin.
#[test]
fn b2_starting_family() {
    let s = state_until(&game2(vec![]));
    let members = s["players"][0]["members"].as_array().cloned().unwrap_or_default();
    assert_eq!(members.iter().filter(|m| m["at"] == "farm" && m["gen"] == 1).count(), 4);
    assert_eq!(members.iter().filter(|m| m["at"] == "reserve").count(), 7);
    assert_eq!(s["players"][0]["coins"], json!(1));
    assert_eq!(s["phase"], json!("turn"));
}

/// G.1.5: the canonical table is not shipped — the first need fails at that entry.
#[test]
fn g1_5_missing_component_data_at_first_need() {
    let mut log = game2(vec![]);
    log["setup"]["components"] = json!("village-bigbox/1");
    assert_invalid(&log, 0, "missing_component_data");
    // Partial inline data: the populate works, the first time payment needs `life_track`.
    let mut c = synthetic();
    c.as_object_mut().map(|o| o.remove("life_track"));
    let log = log2(
        c,
        vec![
            populate1(),
            turn(0, "harvest", "green", json!({"do": "harvest"})),
            turn(1, "harvest", "black", json!({"do": "harvest"})),
        ],
    );
    assert_invalid(&log, 2, "missing_component_data");
}

/// G.1.5: a datum first needed by final scoring fails at the index equal to the entry count.
#[test]
fn g1_5_scoring_data_fails_after_the_last_entry() {
    let log = fixture("synthetic-2p-complete.json");
    let n = log["entries"].as_array().map_or(0, Vec::len);
    let mut partial = log.clone();
    partial["setup"]["components"]["customers"] = json!({});
    let r = replay(&partial);
    let e = r.error.as_ref().map(|e| (e.entry, e.code.as_str()));
    // Either a sale needs the data first (at its entry), or scoring does (at n).
    assert!(matches!(e, Some((Some(i), "missing_component_data")) if i <= n), "{e:?}");
}

/// LOG-FORMAT "Replay result": an invalid log names "the first illegal entry, by its index in
/// `entries` (0-based; `null` for `setup` and the envelope …)". The verdict's error carries
/// `"entry": null` (present, not left out) for envelope and setup faults, on either reading
/// of the log (the single pass and the member-by-member one).
#[test]
fn setup_and_envelope_errors_are_at_entry_null() {
    use chronicle_game::GameEngine;
    type Edit = fn(&mut serde_json::Value);
    let cases: [(Edit, &str); 4] = [
        (|l| l["format"] = json!("caverna-log/1"), "bad_format"),
        (|l| l["extra"] = json!(1), "unknown_field"),
        (|l| l["setup"]["players"] = json!([]), "bad_setup"),
        (|l| l["setup"]["components"]["council_time"]["2"] = json!(4), "bad_components"),
    ];
    for (edit, code) in cases {
        let mut log = game2(vec![]);
        edit(&mut log);
        let v = chronicle_village::Village::verdict(&replay(&log));
        let json = serde_json::to_value(&v).unwrap_or_default();
        let error = json["error"].as_object().cloned().unwrap_or_default();
        assert_eq!(error.get("code"), Some(&json!(code)));
        assert_eq!(error.get("entry"), Some(&serde_json::Value::Null), "{code}: {json}");
    }
}
