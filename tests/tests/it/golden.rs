//! Golden game logs (`tests/fixtures/games/`), replayed through the CLI in-process.
//!
//! Every log `<name>.json` with a sidecar `<name>.expect.json` is replayed with
//! `chronicle replay --json`, and the sidecar pins the result:
//!
//! - `status`, `round` (when given) and `error` (`null`, or `entry`/`player`/`code`);
//! - for complete games, every score-pad row of every player (`RULES.md` G.1), the winners and
//!   the differences from `claimed`; `hand_worked` holds the same rows worked out by hand from
//!   the final state, one line per player ending in `total N`;
//! - for invalid logs, `twin` names a valid log that differs in exactly one entry (the one the
//!   invalid log fails at), `rule` the rule it breaks, `schema_valid` whether only the rules
//!   (and not the notation) are broken (checked by `log_schema.rs`).
//!
//! The complete games cover every player count from 1 to 7, and together they build most of
//! the 48 furnishing tiles (at least 30 in some three of them).

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// The score-pad rows printed for each player, in order (`RULES.md` G.1).
const SCORE_ROWS: [&str; 11] = [
    "farm_animals_and_dogs",
    "missing_farm_animal_types",
    "grain",
    "vegetables",
    "rubies",
    "dwarfs",
    "unused_spaces",
    "tiles_pastures_mines",
    "bonus_parlors_storages_chambers",
    "gold_and_begging",
    "total",
];

fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/games")
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A log with its sidecar.
struct Fixture {
    name: String,
    log_path: PathBuf,
    expect: Value,
}

impl Fixture {
    fn log(&self) -> Value {
        read_json(&self.log_path)
    }

    fn expected_status(&self) -> &str {
        self.expect["status"].as_str().unwrap_or_else(|| panic!("{}: sidecar without `status`", self.name))
    }
}

/// Every `<name>.expect.json` in the fixtures directory with its `<name>.json`, by name.
fn fixtures() -> Vec<Fixture> {
    let dir = games_dir();
    let mut out = Vec::new();
    for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()) else {
            continue;
        };
        let Some(name) = file.strip_suffix(".expect.json") else {
            continue;
        };
        let log_path = dir.join(format!("{name}.json"));
        assert!(log_path.is_file(), "sidecar {file} has no log {name}.json");
        out.push(Fixture { name: name.to_owned(), log_path, expect: read_json(&path) });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(!out.is_empty(), "no golden fixtures in {}", dir.display());
    out
}

/// `chronicle replay --json FILE`, in-process: the exit code and the one JSON line printed.
fn replay(path: &Path) -> (i32, Value) {
    let args: Vec<OsString> =
        vec!["chronicle".into(), "replay".into(), "--json".into(), path.as_os_str().to_os_string()];
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = chronicle_api::cli::run(args, &mut std::io::empty(), &mut out, &mut err);
    let text = String::from_utf8(out).expect("replay output is UTF-8");
    let line = text.trim();
    let value = serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "{}: replay printed no JSON line ({e}); stdout {line:?}, stderr {:?}",
            path.display(),
            String::from_utf8_lossy(&err)
        )
    });
    (code, value)
}

/// Collects failures so that one run reports every fixture that drifted.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.0.push(what());
        }
    }

    fn assert_none(self, about: &str) {
        assert!(self.0.is_empty(), "{about}:\n  {}", self.0.join("\n  "));
    }
}

fn object<'a>(v: &'a Value, what: &str) -> &'a Map<String, Value> {
    v.as_object().unwrap_or_else(|| panic!("{what} is not an object: {v}"))
}

fn players_in_setup(log: &Value) -> usize {
    log["setup"]["players"].as_array().map_or(0, Vec::len)
}

#[test]
fn replay_status_round_and_error_match_every_sidecar() {
    let mut f = Failures::default();
    for fx in fixtures() {
        let (_, got) = replay(&fx.log_path);
        let want = &fx.expect;
        f.check(got["status"] == want["status"], || {
            format!("{}: status {} expected {}; error {}", fx.name, got["status"], want["status"], got["error"])
        });
        if let Some(round) = want.get("round") {
            f.check(&got["round"] == round, || format!("{}: round {} expected {round}", fx.name, got["round"]));
        }
        match want.get("error") {
            Some(Value::Null) | None => {
                f.check(got.get("error").is_none_or(Value::is_null), || {
                    format!("{}: unexpected error {}", fx.name, got["error"])
                });
            }
            Some(error) => {
                for key in ["entry", "player", "code"] {
                    f.check(got["error"][key] == error[key], || {
                        format!(
                            "{}: error {key} {} expected {} ({})",
                            fx.name, got["error"][key], error[key], got["error"]["message"]
                        )
                    });
                }
            }
        }
    }
    f.assert_none("replays that differ from their sidecar");
}

#[test]
fn exit_code_is_0_for_valid_logs_and_1_for_invalid_ones() {
    let mut f = Failures::default();
    for fx in fixtures() {
        let (code, _) = replay(&fx.log_path);
        let want = if fx.expected_status() == "invalid" { 1 } else { 0 };
        f.check(code == want, || format!("{}: exit code {code}, expected {want}", fx.name));
    }
    f.assert_none("wrong exit codes");
}

#[test]
fn complete_games_reproduce_every_score_row_winners_and_claimed_mismatches() {
    let mut f = Failures::default();
    let mut complete = 0;
    for fx in fixtures().into_iter().filter(|fx| fx.expect.get("players").is_some()) {
        complete += 1;
        let (_, got) = replay(&fx.log_path);
        let want_players = fx.expect["players"].as_array().expect("`players` is a list");
        let got_players = got["players"].as_array().cloned().unwrap_or_default();
        f.check(got_players.len() == want_players.len(), || {
            format!("{}: {} players scored, expected {}", fx.name, got_players.len(), want_players.len())
        });
        for (i, (g, w)) in got_players.iter().zip(want_players).enumerate() {
            f.check(g["name"] == w["name"], || {
                format!("{}: player {i} is {}, expected {}", fx.name, g["name"], w["name"])
            });
            for (side, score) in [("sidecar", &w["score"]), ("replay", &g["score"])] {
                let mut keys: Vec<&str> = object(score, "score").keys().map(String::as_str).collect();
                keys.sort_unstable();
                let mut expected = SCORE_ROWS.to_vec();
                expected.sort_unstable();
                f.check(keys == expected, || {
                    format!("{}: player {i} {side} rows {keys:?}, expected the G.1 rows", fx.name)
                });
            }
            for row in SCORE_ROWS {
                f.check(g["score"][row] == w["score"][row], || {
                    format!("{}: {} {row} = {}, expected {}", fx.name, w["name"], g["score"][row], w["score"][row])
                });
            }
        }
        for key in ["winners", "claimed_mismatches"] {
            if let Some(want) = fx.expect.get(key) {
                f.check(&got[key] == want, || format!("{}: {key} {} expected {want}", fx.name, got[key]));
            }
        }
    }
    assert!(complete > 0, "no complete fixtures with scores");
    f.assert_none("complete games that score differently");
}

#[test]
fn score_rows_add_up_and_hand_worked_totals_agree_with_the_sidecar() {
    let mut f = Failures::default();
    for fx in fixtures().into_iter().filter(|fx| fx.expected_status() == "complete") {
        let players = fx.expect["players"].as_array().cloned().unwrap_or_default();
        f.check(!players.is_empty(), || format!("{}: complete without `players`", fx.name));
        for p in &players {
            let rows: i64 = SCORE_ROWS[..10].iter().map(|r| p["score"][r].as_i64().unwrap_or(i64::MIN / 16)).sum();
            f.check(Some(rows) == p["score"]["total"].as_i64(), || {
                format!("{}: {} rows sum to {rows}, total {}", fx.name, p["name"], p["score"]["total"])
            });
        }
        let best = players.iter().filter_map(|p| p["score"]["total"].as_i64()).max();
        let winners: Vec<Value> = players
            .iter()
            .enumerate()
            .filter(|(_, p)| p["score"]["total"].as_i64() == best)
            .map(|(i, _)| Value::from(i))
            .collect();
        f.check(fx.expect["winners"] == Value::Array(winners.clone()), || {
            format!("{}: winners {} but the highest totals are {winners:?}", fx.name, fx.expect["winners"])
        });
        let Some(hand) = fx.expect.get("hand_worked").and_then(Value::as_array) else {
            if fx.name.starts_with("complete_") {
                f.0.push(format!("{}: complete game without `hand_worked`", fx.name));
            }
            continue;
        };
        f.check(hand.len() == players.len(), || format!("{}: {} hand-worked lines", fx.name, hand.len()));
        for (line, p) in hand.iter().zip(&players) {
            let line = line.as_str().unwrap_or_default();
            let name = p["name"].as_str().unwrap_or_default();
            f.check(line.starts_with(&format!("{name}: ")), || {
                format!("{}: hand-worked line for {name}: {line}", fx.name)
            });
            let total = format!("total {}", p["score"]["total"]);
            f.check(line.ends_with(&total), || {
                format!("{}: {name}'s hand-worked line does not end in {total}", fx.name)
            });
        }
    }
    f.assert_none("inconsistent sidecars");
}

#[test]
fn every_invalid_log_has_a_valid_twin_differing_only_in_the_failing_entry() {
    let mut f = Failures::default();
    let dir = games_dir();
    let mut invalid = 0;
    for fx in fixtures().into_iter().filter(|fx| fx.expected_status() == "invalid") {
        invalid += 1;
        for key in ["twin", "rule", "schema_valid"] {
            f.check(fx.expect.get(key).is_some(), || format!("{}: sidecar without `{key}`", fx.name));
        }
        f.check(
            fx.expect["rule"].as_str().is_some_and(|r| r.contains("RULES.md") || r.contains("LOG-FORMAT.md")),
            || format!("{}: `rule` {} cites no section", fx.name, fx.expect["rule"]),
        );
        let Some(twin) = fx.expect["twin"].as_str() else {
            continue;
        };
        let twin_path = dir.join(twin);
        if !twin_path.is_file() {
            f.0.push(format!("{}: twin {twin} does not exist", fx.name));
            continue;
        }
        let (code, twin_result) = replay(&twin_path);
        f.check(code == 0 && twin_result["status"] != "invalid", || {
            format!("{}: twin {twin} replays {} ({})", fx.name, twin_result["status"], twin_result["error"])
        });
        let twin_sidecar = dir.join(twin.replace(".json", ".expect.json"));
        f.check(twin_sidecar.is_file(), || format!("{}: twin {twin} has no sidecar", fx.name));

        let (log, other) = (fx.log(), read_json(&twin_path));
        f.check(log["setup"] == other["setup"], || format!("{}: setup differs from {twin}", fx.name));
        let a = log["entries"].as_array().cloned().unwrap_or_default();
        let b = other["entries"].as_array().cloned().unwrap_or_default();
        if a.len() != b.len() {
            f.0.push(format!("{}: {} entries, twin {twin} has {}", fx.name, a.len(), b.len()));
            continue;
        }
        let differing: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        f.check(differing.len() == 1, || format!("{}: differs from {twin} at entries {differing:?}", fx.name));
        if let [i] = differing[..] {
            f.check(fx.expect["error"]["entry"].as_u64() == Some(i as u64), || {
                format!("{}: differs from its twin at entry {i}, fails at {}", fx.name, fx.expect["error"]["entry"])
            });
        }
    }
    assert!(invalid >= 15, "only {invalid} invalid fixtures; at least 15 expected");
    f.assert_none("invalid fixtures without a proper twin");
}

#[test]
fn invalid_fixtures_cover_the_core_error_codes() {
    let codes: BTreeSet<String> = fixtures()
        .iter()
        .filter(|fx| fx.expected_status() == "invalid")
        .filter_map(|fx| fx.expect["error"]["code"].as_str().map(str::to_owned))
        .collect();
    let required = [
        "space_occupied",
        "not_your_turn",
        "dwarf_order",
        "not_adjacent",
        "wrong_terrain",
        "cell_occupied",
        "stable_not_allowed",
        "furnishing_unavailable",
        "insufficient_goods",
        "loot_not_allowed",
        "weapon_state",
        "animals_unhoused",
        "no_room",
        "action_not_allowed",
        "no_action",
        "imitation_target",
        "unknown_id",
        "malformed",
        "cell_off_board",
        "unexpected_entry",
    ];
    let missing: Vec<&str> = required.iter().copied().filter(|c| !codes.contains(*c)).collect();
    assert!(missing.is_empty(), "no invalid fixture for {missing:?}; covered: {codes:?}");
}

#[test]
fn complete_games_exist_for_1_to_7_players() {
    let mut counts = BTreeSet::new();
    for fx in fixtures().into_iter().filter(|fx| fx.expected_status() == "complete") {
        let (_, got) = replay(&fx.log_path);
        if got["status"] == "complete" {
            counts.insert(players_in_setup(&fx.log()));
        }
    }
    for n in 1..=7 {
        assert!(counts.contains(&n), "no complete golden game for {n} players (have {counts:?})");
    }
}

/// The furnishing tiles a log builds: `furnish` actions and the `loot_furnish_cavern` /
/// `loot_dwelling_2w2s` loot of expeditions, also inside `imitate` (`LOG-FORMAT.md` "Actions").
fn furnishing_tiles_built(log: &Value) -> BTreeSet<String> {
    fn walk(actions: &Value, out: &mut BTreeSet<String>) {
        for action in actions.as_array().into_iter().flatten() {
            match action["do"].as_str() {
                Some("furnish") => out.extend(action["tile"].as_str().map(str::to_owned)),
                Some("expedition") => {
                    for loot in action["loot"].as_array().into_iter().flatten() {
                        if matches!(loot["item"].as_str(), Some("loot_furnish_cavern" | "loot_dwelling_2w2s")) {
                            out.extend(loot["tile"].as_str().map(str::to_owned));
                        }
                    }
                }
                Some("imitate") => walk(&action["actions"], out),
                _ => {}
            }
        }
    }
    let mut out = BTreeSet::new();
    for entry in log["entries"].as_array().into_iter().flatten() {
        walk(&entry["actions"], &mut out);
    }
    out
}

#[test]
fn three_complete_games_use_30_distinct_tiles() {
    let games: Vec<(String, BTreeSet<String>)> = fixtures()
        .into_iter()
        .filter(|fx| fx.expected_status() == "complete")
        .map(|fx| {
            let tiles = furnishing_tiles_built(&fx.log());
            (fx.name, tiles)
        })
        .collect();
    assert!(games.len() >= 3, "only {} complete fixtures", games.len());
    let mut best: Option<(usize, [&str; 3])> = None;
    for (i, a) in games.iter().enumerate() {
        for (j, b) in games.iter().enumerate().skip(i + 1) {
            for c in games.iter().skip(j + 1) {
                let n = a.1.iter().chain(&b.1).chain(&c.1).collect::<BTreeSet<_>>().len();
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, [&a.0, &b.0, &c.0]));
                }
            }
        }
    }
    let (n, names) = best.expect("at least one triple");
    assert!(n >= 30, "the best three complete games ({names:?}) use only {n} distinct furnishing tiles; 30 expected");
}
