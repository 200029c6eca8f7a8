//! The questions pages and `questions` (docs/statistics.md, "Questions") on a simulated corpus
//! of pool players, against a plain reference over the verdicts the server returned when the
//! games were stored: every answer's counts (player-games, wins, on both sides), the switchers
//! that inform its controlled effect, whether that effect is given (the support), and the
//! page's figures, for all three games and both stores.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

both_stores!(questions_answer_as_a_plain_count_over_the_stored_verdicts);

/// Games of each title: enough for the pool's 21 strategy players to switch.
const GAMES: u32 = 90;

const PLAYER: &str = "players { name seat winner score { total rows { id points } } counters { id value } }";
const ANSWERS: &str = "game playerGames games simulatedPlayerGames syntheticPlayerGames simulatedLeftOut \
    questions { id asked summary answers { label used { successes n rate } notUsed { successes n } \
    controlledWin { estimate ciLow ciHigh } switchers notEnoughData verdict verdictWords } }";

/// One stored player-game as the reference reads it.
struct Seat {
    name: String,
    players: usize,
    seat: usize,
    winner: bool,
    /// Score rows in the order the verdict gives them (the pad's order).
    rows: Vec<i64>,
    counters: Vec<i64>,
}

fn pooled(game: &str, games: u32, players: u8, seed: u64) -> Vec<Value> {
    let (games, players, seed) = (games.to_string(), players.to_string(), seed.to_string());
    let args = [
        "simulate",
        "--game",
        game,
        "--games",
        &games,
        "--players",
        &players,
        "--seed",
        &seed,
        "--pool",
        "24",
        "--out",
        "-",
    ];
    let out = chronicle().args(args).output().expect("chronicle simulate");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

fn stored(server: &Server, token: &str, game: &str, players: u8) -> Vec<Seat> {
    let q = format!("mutation($log: JSON!) {{ submitGame(log: $log) {{ game {{ status {PLAYER} }} }} }}");
    let mut seats = Vec::new();
    for log in pooled(game, GAMES, players, 8) {
        let g = server.data(Some(token), &q, json!({ "log": log }))["submitGame"]["game"].clone();
        assert_eq!(g["status"], "COMPLETE", "{g}");
        let list = g["players"].as_array().expect("players").clone();
        for p in &list {
            let numbers = |v: &Value, field: &str| -> Vec<i64> {
                v.as_array().map_or(Vec::new(), |a| a.iter().map(|x| x[field].as_i64().expect("a number")).collect())
            };
            seats.push(Seat {
                name: p["name"].as_str().expect("a name").to_owned(),
                players: list.len(),
                seat: p["seat"].as_u64().expect("a seat") as usize,
                winner: p["winner"] == true,
                rows: numbers(&p["score"]["rows"], "points"),
                counters: numbers(&p["counters"], "value"),
            });
        }
    }
    seats
}

/// The largest row's position (the first on a tie).
fn main_source(rows: &[i64]) -> Option<usize> {
    let best = rows.iter().max()?;
    rows.iter().position(|r| r == best)
}

/// Whether a player-game did what an answer asks about.
type Did<'a> = &'a dyn Fn(&Seat) -> bool;

/// Counts of the player-games that did and did not, and the players who did both.
fn reference(seats: &[&Seat], did: &dyn Fn(&Seat) -> bool) -> Value {
    let count = |t: bool| {
        let side: Vec<&&Seat> = seats.iter().filter(|s| did(s) == t).collect();
        (side.iter().filter(|s| s.winner).count(), side.len())
    };
    let mut by_player: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for s in seats {
        let e = by_player.entry(s.name.as_str()).or_default();
        e.0 += usize::from(did(s));
        e.1 += 1;
    }
    let switchers = by_player.values().filter(|(used, n)| *used > 0 && used < n).count();
    let ((k1, n1), (k0, n0)) = (count(true), count(false));
    json!({ "used": [k1, n1], "notUsed": [k0, n0], "switchers": switchers })
}

fn seen(a: &Value) -> Value {
    json!({
        "used": [a["used"]["successes"], a["used"]["n"]],
        "notUsed": [a["notUsed"]["successes"], a["notUsed"]["n"]],
        "switchers": a["switchers"],
    })
}

/// `rounds`: per counter of the game, whether its value is a round (`gameKinds { counters }`).
fn check(game: &str, answers: &Value, seats: &[Seat], rounds: &[bool]) {
    let all: Vec<&Seat> = seats.iter().collect();
    assert_eq!(answers["playerGames"], all.len(), "{game}");
    assert_eq!(answers["simulatedPlayerGames"], all.len(), "{game}: every game is simulated");
    assert_eq!(answers["simulatedLeftOut"], 0, "{game}: nothing to leave out without games played by people");
    let questions = answers["questions"].as_array().expect("questions");
    let find = |id: &str| questions.iter().find(|q| q["id"] == id).unwrap_or_else(|| panic!("{game}: {id}"));
    let mut checked = 0;
    // Which seat has the edge?
    let players = seats[0].players;
    let at: Vec<&Seat> = all.iter().copied().filter(|s| s.players == players).collect();
    for (seat, a) in find(&format!("seat-{players}"))["answers"].as_array().expect("answers").iter().enumerate() {
        assert_eq!(a["label"], format!("Seat {}", seat + 1));
        assert_eq!(seen(a), reference(&at, &|s| s.seat == seat), "{game}: seat {}", seat + 1);
        checked += 1;
    }
    // Which source of points wins? (rows nobody's main source has no answer)
    let sources = find("main-source")["answers"].as_array().expect("answers").clone();
    let rows = seats[0].rows.len();
    let mains: Vec<usize> = (0..rows).filter(|&r| all.iter().any(|s| main_source(&s.rows) == Some(r))).collect();
    assert_eq!(sources.len(), mains.len(), "{game}");
    for (a, &r) in sources.iter().zip(&mains) {
        assert_eq!(seen(a), reference(&all, &|s| main_source(&s.rows) == Some(r)), "{game}: {}", a["label"]);
        checked += 1;
    }
    // Does a high count help? (above the median) — or, for a round, early, late or never?
    for (k, &round) in rounds.iter().enumerate() {
        let answers = find(&format!("counter-{k}"))["answers"].as_array().expect("answers").clone();
        if round {
            let mut done: Vec<i64> = all.iter().map(|s| s.counters[k]).filter(|&r| r > 0).collect();
            done.sort_unstable();
            let median = done[(done.len() - 1) / 2];
            let expected: [(String, Did); 3] = [
                (if median == 1 { "In round 1".to_owned() } else { format!("In round {median} or earlier") }, &|s| {
                    (1..=median).contains(&s.counters[k])
                }),
                (format!("After round {median}"), &|s| s.counters[k] > median),
                ("Never".to_owned(), &|s| s.counters[k] == 0),
            ];
            assert_eq!(answers.len(), 3, "{game}: counter {k}");
            for (a, (label, did)) in answers.iter().zip(expected.iter()) {
                assert_eq!(a["label"], *label);
                assert_eq!(seen(a), reference(&all, *did), "{game}: counter {k}, {label}");
                checked += 1;
            }
            continue;
        }
        let mut values: Vec<i64> = all.iter().map(|s| s.counters[k]).collect();
        values.sort_unstable();
        let median = values[(values.len() - 1) / 2];
        assert_eq!(answers[0]["label"], format!("More than {median}"));
        assert_eq!(seen(&answers[0]), reference(&all, &|s| s.counters[k] > median), "{game}: counter {k}");
        checked += 1;
    }
    // The support and the verdict: an effect only from 20 switchers; the verdict reads it.
    for q in questions {
        for a in q["answers"].as_array().expect("answers") {
            let supported = a["notEnoughData"].is_null();
            assert!(supported || a["controlledWin"].is_null(), "{game}: no effect below the support: {a}");
            if a["switchers"].as_u64().expect("switchers") < 20 {
                assert!(!supported && a["verdict"] == "not_enough_data", "{game}: {a}");
            }
            let w = &a["controlledWin"];
            let verdict = match (w["ciLow"].as_f64(), w["ciHigh"].as_f64()) {
                (Some(lo), _) if lo > 0.0 => "helps",
                (_, Some(hi)) if hi < 0.0 => "hurts",
                (Some(_), Some(_)) => "no_detectable_effect",
                _ => "not_enough_data",
            };
            assert_eq!(a["verdict"], verdict, "{game}: {a}");
        }
    }
    assert!(checked >= players + 2, "{game}: {checked} answers checked");
    let supported = questions
        .iter()
        .flat_map(|q| q["answers"].as_array().expect("answers"))
        .filter(|a| a["notEnoughData"].is_null());
    assert!(
        supported.count() > 0,
        "{game}: some answers have a controlled effect on this corpus: {}",
        find(&format!("seat-{players}"))
    );
}

/// The page shows the same answers: each question, its summary, and each answer's counts.
fn page_agrees(server: &Server, game: &str, answers: &Value) {
    let (status, html) = server.get(&format!("/questions/{game}"));
    assert_eq!(status, 200);
    let text = html.replace("&#39;", "'").replace("&quot;", "\"");
    assert!(text.contains(&format!("Computed over {} player-games", answers["playerGames"])), "{game}");
    for q in answers["questions"].as_array().expect("questions") {
        for field in ["asked", "summary"] {
            let s = q[field].as_str().expect("text");
            assert!(text.contains(s), "{game}: the page says {s:?}");
        }
        for a in q["answers"].as_array().expect("answers") {
            let row =
                format!("<td>{}</td><td class=\"num\">{}</td>", a["label"].as_str().expect("label"), a["used"]["n"]);
            assert!(text.contains(&row), "{game}: {row}");
            if let Some(why) = a["notEnoughData"].as_str() {
                assert!(text.contains(why), "{game}: {why}");
            }
            let words = match a["verdict"].as_str() {
                Some("not_enough_data") => "Not enough data.",
                _ => a["verdictWords"].as_str().expect("words"),
            };
            assert!(text.contains(words), "{game}: {words}");
        }
    }
}

fn questions_answer_as_a_plain_count_over_the_stored_verdicts(db: Database) {
    let server = Server::start(&db, &["--rate-limit", "100000"]);
    let token = create_token(&db, "club");
    for (game, players) in [("caverna", 3), ("village", 3), ("above-and-below", 3)] {
        let seats = stored(&server, &token, game, players);
        let q = format!("query($g: String!) {{ questions(game: $g) {{ {ANSWERS} }} }}");
        let answers = server.data(None, &q, json!({ "g": game }))["questions"].clone();
        let kinds = server.data(None, "{ gameKinds { id counters { round } } }", json!({}))["gameKinds"].clone();
        let kind = kinds.as_array().expect("kinds").iter().find(|k| k["id"] == game).expect("the game").clone();
        let rounds: Vec<bool> =
            kind["counters"].as_array().expect("counters").iter().map(|c| c["round"] == true).collect();
        assert_eq!(rounds.len(), seats[0].counters.len(), "{game}");
        check(game, &answers, &seats, &rounds);
        page_agrees(&server, game, &answers);
    }
    // Caverna's own questions are there: a tile (the most built by default, or the one asked
    // about) and arming.
    let q = "{ questions(game: \"caverna\", tile: \"weaving_parlor\") { tile questions { id asked } } }";
    let c = server.data(None, q, json!({}))["questions"].clone();
    assert_eq!(c["tile"], "weaving_parlor");
    assert_eq!(c["questions"][0]["asked"], "Does building the Weaving parlor help?");
    assert_eq!(c["questions"][1]["id"], "arming");
    let (_, code) =
        server.error_code(None, "{ questions(game: \"village\", tile: \"weaving_parlor\") { game } }", json!({}));
    assert_eq!(code, "BAD_USER_INPUT");
    // A tile name of 100,000 characters is refused with a bounded message.
    let q = "query($t: String) { questions(game: \"caverna\", tile: $t) { game } }";
    let (status, body) = server.graphql(None, q, json!({ "t": "x".repeat(100_000) }));
    assert_eq!((status, &body["errors"][0]["extensions"]["code"]), (200, &json!("BAD_USER_INPUT")), "{status}");
    assert!(body["errors"][0]["message"].as_str().is_some_and(|m| m.chars().count() < 2_100));
    // Answers are kept between requests, and follow a newly stored game.
    let count = || {
        let q = "{ questions(game: \"caverna\") { playerGames } }";
        server.data(None, q, json!({}))["questions"]["playerGames"].as_i64().expect("a count")
    };
    let before = count();
    assert_eq!(count(), before, "asked again");
    let one = pooled("caverna", 1, 3, 9).remove(0);
    let q = "mutation($log: JSON!) { submitGame(log: $log) { game { status } } }";
    assert_eq!(server.data(Some(&token), q, json!({ "log": one }))["submitGame"]["game"]["status"], "COMPLETE");
    assert_eq!(count(), before + 3, "the new game's three player-games are counted");
}
