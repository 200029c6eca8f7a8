//! Time and death (`docs/rules/village.md` C.6, C.7, G.11, H.8, H.9).

use serde_json::json;

use crate::common::*;

fn worked(upto: usize) -> Vec<serde_json::Value> {
    let log = fixture("worked-example-2p-round-1.json");
    log["entries"].as_array().map(|a| a[1..upto].to_vec()).unwrap_or_default()
}

/// C.6, C.7, G.11.2: passing the quill kills one of the oldest visible members; with two
/// places the player chooses (entry 11 of the worked example); a younger one is refused.
#[test]
fn c7_choice_of_the_dying_member() {
    let mut e = worked(11);
    e.push(json!({"type": "death", "player": 0, "member": {"gen": 1, "at": "craft:blacksmith"}}));
    let s = state_until(&example(e.clone()));
    let dead: Vec<_> =
        s["players"][0]["members"].as_array().into_iter().flatten().filter(|m| m["at"] == "chronicle:crafts").collect();
    assert_eq!(dead.len(), 1);
    let mut bad = e.clone();
    bad[10] = json!({"type": "death", "player": 0, "member": {"gen": 2}});
    assert_invalid(&example(bad), 11, "member_not_found");
    let mut bad = e.clone();
    bad[10] = json!({"type": "death", "player": 0, "member": {"gen": 1, "at": "bag"}});
    assert_invalid(&example(bad), 11, "not_oldest");
    let mut bad = e;
    bad[10] = json!({"type": "death", "player": 1, "member": {"gen": 1}});
    assert_invalid(&example(bad), 11, "death_not_due");
}

/// G.11.3: a death with a choice must be resolved by the next entry.
#[test]
fn g11_3_death_expected() {
    let mut e = worked(11);
    e.push(take(1, "travel", "brown"));
    assert_invalid(&example(e), 11, "death_expected");
}

/// G.11.1: a death entry where none is due.
#[test]
fn g11_1_death_not_due() {
    let e = vec![json!({"type": "death", "player": 0, "member": {"gen": 1}})];
    assert_invalid(&example(e), 1, "death_not_due");
}

/// C.7, LOG-FORMAT `death`: a forced death needs no entry but may be written.
#[test]
fn c7_forced_death_is_optional() {
    let mut c = synthetic();
    c["life_track"] = json!(2);
    let e = vec![populate1(), take(0, "harvest", "black")];
    let s = state(&log2(c.clone(), e.clone()));
    let dead = s["players"][0]["members"].as_array().map(|m| m.iter().filter(|x| x["at"] == "chronicle:farm").count());
    assert_eq!(dead, Some(1));
    let mut written = e;
    written.push(json!({"type": "death", "player": 0, "member": {"gen": 1}}));
    written.push(take(1, "harvest", "green"));
    assert_valid(&log2(c, written));
}

/// H.9: "One death per passing, resolved in order." Two passings in one turn, two deaths.
#[test]
fn h9_several_passings() {
    let mut c = synthetic();
    c["life_track"] = json!(1);
    let s = state(&log2(c, vec![populate1(), take(0, "harvest", "black")]));
    let dead = s["players"][0]["members"].as_array().map(|m| m.iter().filter(|x| x["at"] == "chronicle:farm").count());
    assert_eq!(dead, Some(2));
}
