//! The recorder of every game through a real headless Chromium against the real `chronicle
//! serve` (docs/web.md "/record"): games of Village and Above and Below recorded by clicking
//! only — the setup form, then at every step one of the buttons or highlighted places the page
//! shows, or "Record this entry" — following a game the engine's bots played with the same
//! setup, so that what is recorded is known in advance: a market day in Village, an
//! exploration in Above and Below. The download then replays with `chronicle replay` to the
//! state the page shows, and each answer is timed from click to page.
//!
//! Which button to click is decided by asking `POST /record/next` the question the page asked
//! (the log and the draft the page keeps in the browser) and taking the first option whose
//! draft agrees with the bots' next entry; the click itself goes through the page.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::browser::{browser_available, Browser};
use crate::common::server::*;
use crate::common::*;

/// Whether `draft` agrees with `target` so far: every member it has, the target has alike
/// (objects member by member, lists element by element as a beginning of the target's list);
/// a finished entry may still lack members the target has (values a seed derives).
fn fits(draft: &Value, target: &Value) -> bool {
    match (draft, target) {
        (Value::Object(d), Value::Object(t)) => d.iter().all(|(k, v)| t.get(k).is_some_and(|tv| fits(v, tv))),
        (Value::Array(d), Value::Array(t)) => d.len() <= t.len() && d.iter().zip(t).all(|(a, b)| fits(a, b)),
        (a, b) => a == b,
    }
}

/// How many values of `draft` are the target's.
fn agreeing(draft: &Value, target: &Value) -> usize {
    match draft {
        Value::Object(d) => d.iter().map(|(k, v)| agreeing(v, &target[k])).sum(),
        Value::Array(d) => d.iter().enumerate().map(|(i, v)| agreeing(v, &target[i])).sum(),
        v => usize::from(v == target),
    }
}

/// What the page shows now: ready or not, the verdict line, and the recording it keeps.
fn look(b: &Browser, game: &str) -> Value {
    b.script(
        "const v = document.querySelector('#rec-verdict');
         return { ready: document.body.dataset.recorder === 'ready',
                  text: v ? v.textContent : '',
                  error: (document.querySelector('#rec-status .error') || {}).textContent || null,
                  rec: JSON.parse(localStorage.getItem('chronicle-recorder-' + arguments[0]) || 'null') };",
        json!([game]),
    )
}

fn wait_ready(b: &Browser, game: &str) -> Value {
    let started = Instant::now();
    loop {
        let v = look(b, game);
        if v["ready"] == true {
            return v;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the recorder did not answer: {v}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Types the players' names, fills the engine's setup form with `values` and starts.
fn start(b: &Browser, server: &Server, game: &str, names: &[&str], values: &[(&str, String)]) {
    b.goto(&format!("{}/record?game={game}", server.base));
    b.script("localStorage.clear(); location.reload();", json!([]));
    b.wait_until("the start form", |b| !b.find_all(".player-name").is_empty());
    for (input, name) in b.find_all(".player-name").iter().zip(names) {
        b.type_into(input, name);
    }
    let drawn = format!("#setup-form[data-drawn=\"{}\"]", names.len());
    b.wait_until("the setup form for the players named", |b| b.try_find(&drawn).is_some());
    for (field, value) in values {
        b.script(
            "const f = document.querySelector(`[data-field=\"${arguments[0]}\"]`); f.value = arguments[1]; \
             f.dispatchEvent(new Event('change'));",
            json!([field, value]),
        );
    }
    b.click(&b.find("#start"));
    let v = wait_ready(b, game);
    assert!(v["rec"]["log"].is_object(), "the game started: {v}");
}

/// Clicks whatever takes the recording one step towards `target` (the next entry of the bots'
/// game), as the page offers it; the page's answer is waited for by the caller.
fn click_towards(b: &Browser, server: &Server, rec: &Value, target: &Value) {
    let draft = rec["drafts"].as_array().and_then(|d| d.last()).cloned().unwrap_or(Value::Null);
    let (status, body) =
        server.post_to("/record/next", json!({ "log": rec["log"], "draft": draft }).to_string().as_bytes());
    assert_eq!(status, 200, "{body}");
    let view: Value = serde_json::from_str(&body).expect("JSON");
    if let Some(whole) = view["whole"].as_array() {
        let k = whole.iter().position(|w| fits(&w["entry"], target) && fits(target, &w["entry"]));
        let k = k.unwrap_or_else(|| panic!("no whole entry is {target}: {whole:?}"));
        b.click(&b.find(&format!("#whole button.whole:nth-of-type({})", k + 1)));
        return;
    }
    let steps = &view["steps"];
    let groups = steps["groups"].as_array().cloned().unwrap_or_default();
    // Of the options that agree, the one that says most of the target: a member left out may
    // mean its default (a member "on the farm"), which another option names.
    let chosen = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            let options = group["options"].as_array().cloned().unwrap_or_default();
            options.into_iter().enumerate().map(move |(o, option)| (g, group, o, option))
        })
        .filter(|(_, _, _, option)| option["draft"] != steps["draft"] && fits(&option["draft"], target))
        .max_by_key(|(g, _, o, option)| (agreeing(&option["draft"], target), std::cmp::Reverse((*g, *o))))
        .map(|(g, group, o, _)| (g, group, o));
    match chosen {
        Some((g, group, o)) => click_option(b, g, group, o),
        None => {
            let entry = &steps["entry"];
            assert!(fits(entry, target), "nothing offered leads to {target}: {steps}");
            // The entry is said in words before it is recorded.
            let said = b.text(&b.find("#entry-said"));
            assert!(said.ends_with('.') && !said.contains('{') && !said.contains("player 0"), "said as `{said}`");
            b.click(&b.find("#record-entry"));
        }
    }
}

/// Clicks option `o` of group `g` as the page draws it: its highlighted places on the board
/// when every option of the group names places (then, when other options cover the same
/// places, its button among theirs), else the option's button.
fn click_option(b: &Browser, g: usize, group: &Value, o: usize) {
    let options = group["options"].as_array().expect("options");
    let places = |o: &Value| o["cells"].as_array().map(|c| c.iter().map(|c| c["at"].clone()).collect::<Vec<_>>());
    let on_board = options.iter().all(|o| places(o).is_some_and(|p| !p.is_empty()));
    if on_board {
        let mine = places(&options[o]).unwrap_or_default();
        for at in &mine {
            let at = at.as_str().expect("a place");
            let css = format!("#rec-board [data-row=\"{at}\"].target, #rec-board [data-at=\"{at}\"].target");
            b.wait_until("the place highlighted", |b| b.try_find(&css).is_some());
            b.click(&b.find(&css));
            BOARD_CLICKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        // Options covering the same places are told apart by a button each, in words.
        if options.iter().filter(|other| places(other).unwrap_or_default() == mine).count() > 1 {
            let label = options[o]["label"].as_str().expect("a label");
            b.wait_until("the options of those places", |b| !b.find_all(".board-pick button.tie").is_empty());
            let tie = b.find_all(".board-pick button.tie").into_iter().find(|t| b.text(t) == label);
            b.click(&tie.unwrap_or_else(|| panic!("no button `{label}`")));
        }
    } else {
        let css = format!("#groups fieldset.group:nth-of-type({}) .options button:nth-of-type({})", g + 1, o + 1);
        b.click(&b.find(&css));
    }
}

/// Places clicked on the board by the tests of this module.
static BOARD_CLICKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Records the first `count` entries of `target` by clicking; returns the page's click times
/// (ms from click to the page showing the answer).
fn record(b: &Browser, server: &Server, game: &str, target: &[Value], count: usize) -> Vec<f64> {
    let mut clicks = 0;
    loop {
        let v = wait_ready(b, game);
        assert!(v["error"].is_null(), "the recorder shows an error: {v}");
        let log = &v["rec"]["log"];
        let done = log["entries"].as_array().map_or(0, Vec::len);
        if done > 0 {
            let last = &log["entries"][done - 1];
            assert!(
                fits(last, &target[done - 1]),
                "entry {done} recorded as {last}, the game has {}",
                target[done - 1]
            );
        }
        if done == count {
            break;
        }
        clicks += 1;
        assert!(clicks < 40 * count, "{clicks} clicks for {done} entries");
        click_towards(b, server, &v["rec"], &target[done]);
    }
    let times = b.script("return window.chronicleClicks;", json!([]));
    times.as_array().map(|t| t.iter().filter_map(Value::as_f64).collect()).unwrap_or_default()
}

/// `chronicle <command> --json [args] <log>`.
fn cli(command: &str, args: &[&str], log: &Value) -> Value {
    let dir = TempDir::new();
    let path = dir.0.join("log.json");
    std::fs::write(&path, serde_json::to_vec_pretty(log).unwrap()).unwrap();
    let out = chronicle().args([command, "--json"]).args(args).arg(&path).output().expect("chronicle");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)))
}

/// The bots' game to follow: `chronicle simulate` of one game.
fn simulated(game: &str, players: u8, seed: u64) -> Value {
    let out = chronicle()
        .args(["simulate", "--game", game, "--games", "1", "--out", "-"])
        .args(["--players", &players.to_string(), "--seed", &seed.to_string()])
        .output()
        .expect("chronicle simulate");
    serde_json::from_slice(&out.stdout).expect("a log")
}

/// The download replays to the position the page shows: `chronicle replay` finds it legal with
/// as many entries as the page says, `chronicle state` after its last entry is the state of the
/// bots' game at the same entry, and the page's verdict line and board say the same.
fn replays_to_what_the_page_shows(b: &Browser, game: &str, bots: &Value, count: usize) -> Value {
    let recorded = b.download_json("#download");
    assert_eq!(recorded["entries"].as_array().map(Vec::len), Some(count));
    let replay = cli("replay", &[], &recorded);
    assert_eq!(replay["status"], "incomplete", "{replay}");
    let at = (count - 1).to_string();
    let mine = cli("state", &["--at", &at], &recorded);
    let theirs = cli("state", &["--at", &at], bots);
    assert_eq!(mine["players"], theirs["players"], "the recorded game is the bots' game");
    let v = look(b, game);
    let text = v["text"].as_str().unwrap_or("");
    assert!(
        text.starts_with(&format!("{count} entries · round {} ", mine["round"])),
        "{text} / round {}",
        mine["round"]
    );
    mine
}

/// Two full rounds of a 3-player Village game with a market day, recorded by clicking
/// (docs/web.md "/record"; RULES.md C, D.5): the setup form filled as the bots' game was set up
/// (colours, component data, a seed), every entry built from the engine's step form — action
/// spaces clicked on the board — then downloaded; it replays to the state shown.
#[test]
fn browser_records_two_rounds_of_a_three_player_village_game_with_a_market_day() {
    if !browser_available() {
        return;
    }
    let bots = simulated("village", 3, 5);
    let entries = bots["entries"].as_array().cloned().expect("entries");
    // Through the end of round 2: the entries before round 3's populate.
    let count = entries.iter().position(|e| e["type"] == "populate" && e["round"] == 3).expect("a third round");
    assert!(entries[..count].iter().any(|e| e["action"]["do"] == "market"), "the bots hold a market day");
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let b = Browser::start();
    let setup = &bots["setup"];
    let names: Vec<&str> = setup["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    let mut values: Vec<(&str, String)> = Vec::new();
    for (i, field) in ["color_1", "color_2", "color_3"].into_iter().enumerate() {
        values.push((field, setup["players"][i]["color"].as_str().unwrap().to_owned()));
    }
    values.push(("display", "seed".to_owned()));
    values.push(("seed", setup["seed"].to_string()));
    start(&b, &server, "village", &names, &values);
    let before = BOARD_CLICKS.load(std::sync::atomic::Ordering::Relaxed);
    let mut times = record(&b, &server, "village", &entries, count);
    assert!(
        BOARD_CLICKS.load(std::sync::atomic::Ordering::Relaxed) > before,
        "no action space was clicked on the board"
    );
    let state = replays_to_what_the_page_shows(&b, "village", &bots, count);
    // Each player's coins on the board are the state's.
    for (seat, p) in state["players"].as_array().unwrap().iter().enumerate() {
        let css = format!("#rec-board .player[data-seat=\"{seat}\"] [data-good=\"coin\"]");
        let shown = b.try_find(&css).map(|e| b.text(&e));
        let coins = p["coins"].as_i64().unwrap_or(0);
        match shown {
            Some(text) => assert!(text.starts_with(&format!("{coins} coin")), "seat {seat}: {text} / {coins}"),
            None => assert_eq!(coins, 0, "seat {seat} has {coins} coins but the board shows none"),
        }
    }
    times.sort_by(f64::total_cmp);
    eprintln!("village: {} answers, slowest {:.0} ms", times.len(), times.last().unwrap_or(&0.0));
}

/// A full round of a 2-player Above and Below game with explorations, recorded by clicking
/// (docs/web.md "/record"; RULES.md D, E): the setup form as the bots' game was set up
/// (synthetic cards and board numbers, a seed), each exploration built step by step from the
/// engine's form — cards and villagers clicked where the tableau shows them — then
/// downloaded; it replays to the state shown.
#[test]
fn browser_records_a_round_of_a_two_player_above_and_below_game_with_an_exploration() {
    if !browser_available() {
        return;
    }
    let bots = simulated("above-and-below", 2, 5);
    let entries = bots["entries"].as_array().cloned().expect("entries");
    let count = 1 + entries.iter().position(|e| e["type"] == "round_end").expect("a round's end");
    assert!(entries[..count].iter().any(|e| e["action"]["do"] == "explore"), "the bots explore in round 1");
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let b = Browser::start();
    let setup = &bots["setup"];
    let names: Vec<&str> = setup["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    let values = vec![("random", "seeded".to_owned()), ("seed", setup["seed"].to_string())];
    start(&b, &server, "above-and-below", &names, &values);
    let before = BOARD_CLICKS.load(std::sync::atomic::Ordering::Relaxed);
    let times = record(&b, &server, "above-and-below", &entries, count);
    assert!(BOARD_CLICKS.load(std::sync::atomic::Ordering::Relaxed) > before, "no card or villager was clicked");
    replays_to_what_the_page_shows(&b, "above-and-below", &bots, count);
    let slowest = times.iter().copied().fold(0.0, f64::max);
    eprintln!("above and below: {} answers, slowest {slowest:.0} ms", times.len());
}
