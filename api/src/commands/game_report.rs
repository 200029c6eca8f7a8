//! `chronicle replay` and `chronicle state` for the games other than Caverna (Village, Above
//! and Below): every answer comes from the registry (`chronicle_ingest::games`), in the
//! game-agnostic terms of a verdict, so the command line holds no rule of these games. Caverna
//! keeps its own report ([`crate::commands::report`]), whose output predates the other engines.

use serde_json::{json, Map, Value};

use chronicle_game::{GameKind, Status, Verdict};
use chronicle_ingest::games;

/// The game of a log that is not Caverna's, by its `format`. Caverna logs, and logs that name
/// no game (not JSON, no `format`), stay with Caverna's report, as before the other engines.
pub fn other_game(bytes: &[u8]) -> Option<GameKind> {
    let format = chronicle_ingest::canonical::format_of(bytes)?;
    GameKind::from_format(&format).filter(|&k| k != GameKind::Caverna)
}

/// What `chronicle replay` says about one log of another game.
pub struct GameReplay {
    pub kind: GameKind,
    pub verdict: Verdict,
    /// Who or what the game waits for (incomplete games only).
    pub waiting: Option<String>,
    /// What the replay took as declared (Above and Below's trust report).
    pub trust: Option<Value>,
}

/// Replays a log of game `kind` through the registry.
pub fn replay(bytes: &[u8], kind: GameKind) -> GameReplay {
    let format = Some(kind.format());
    let verdict = games::verdict_of(bytes, format);
    let waiting = if verdict.status == Status::Incomplete {
        games::open_state(bytes, format).map(|s| waiting_text(&s))
    } else {
        None
    };
    GameReplay { kind, verdict, waiting, trust: games::trust_report(bytes, format) }
}

/// Who is to act in a state (the engines' views name the player to move, or say it in words).
fn waiting_text(s: &chronicle_game::StateAt) -> String {
    if let Some(text) = s.state["waiting_for"].as_str() {
        return format!(", waiting for {text}");
    }
    match s.state["to_move"].as_u64() {
        Some(p) => format!(", player {p} to move"),
        None => format!(", waiting in the {} phase", s.phase),
    }
}

/// One line of `chronicle replay --json` for another game: Caverna's keys (`file`, `status`,
/// `round`, `engine`, `error`, `players`, `winners`, `claimed_mismatches`) plus `game`, and
/// `trust` for Above and Below.
pub fn replay_json(file: &str, r: &GameReplay) -> Value {
    let v = &r.verdict;
    let mut o = Map::new();
    o.insert("file".into(), json!(file));
    o.insert("game".into(), json!(r.kind.id()));
    o.insert("status".into(), json!(v.status));
    o.insert("round".into(), json!(v.round_reached));
    o.insert("engine".into(), json!(v.engine_version));
    if let Some(e) = &v.error {
        o.insert("error".into(), json!(e));
    }
    if v.status == Status::Complete {
        let winners: Vec<usize> = v.players.iter().enumerate().filter(|(_, p)| p.winner).map(|(i, _)| i).collect();
        o.insert("players".into(), json!(v.players));
        o.insert("winners".into(), json!(winners));
        o.insert("claimed_mismatches".into(), json!(mismatches(v)));
    }
    if let Some(t) = &r.trust {
        o.insert("trust".into(), t.clone());
    }
    Value::Object(o)
}

/// Seats whose claimed total differs from the computed one: `{player, claimed, computed}`.
fn mismatches(v: &Verdict) -> Vec<Value> {
    v.players
        .iter()
        .enumerate()
        .filter_map(|(seat, p)| match (p.claimed, p.score.as_ref()) {
            (Some(c), Some(s)) if c != s.total => Some(json!({ "player": seat, "claimed": c, "computed": s.total })),
            _ => None,
        })
        .collect()
}

/// The human summary of one replay of another game, with the trust report under it.
pub fn replay_text(file: &str, r: &GameReplay) -> String {
    let v = &r.verdict;
    let name = r.kind.spec().name;
    let mut text = match v.status {
        Status::Invalid => {
            let e = v.error.as_ref();
            let at = e.and_then(|e| e.entry).map_or_else(|| "the document".to_owned(), |i| format!("entry {i}"));
            let player = e.and_then(|e| e.player).map(|p| format!(" (player {p})")).unwrap_or_default();
            let (code, msg) = e.map_or(("", ""), |e| (e.code.as_str(), e.message.as_str()));
            format!("{file}: {name}, invalid at {at}{player}: {code}: {msg}")
        }
        Status::Incomplete => {
            let waiting = r.waiting.as_deref().unwrap_or("");
            format!("{file}: {name}, valid, incomplete at round {}{waiting}", v.round_reached)
        }
        Status::Complete => complete_text(file, name, v),
    };
    if let Some(t) = &r.trust {
        text.push_str(&trust_text(t));
    }
    text
}

fn complete_text(file: &str, name: &str, v: &Verdict) -> String {
    let total = |p: &chronicle_game::PlayerVerdict| p.score.as_ref().map_or(0, |s| s.total);
    let list: Vec<String> = v.players.iter().map(|p| format!("{} {}", p.name, total(p))).collect();
    let winners: Vec<&str> = v.players.iter().filter(|p| p.winner).map(|p| p.name.as_str()).collect();
    let mut line = format!("{file}: {name}, valid, complete: {}; winner: {}", list.join(", "), winners.join(" and "));
    for m in mismatches(v) {
        line.push_str(&format!(
            "\n  claimed score of player {} is {}, computed {}",
            m["player"], m["claimed"], m["computed"]
        ));
    }
    line
}

/// A count read from a report in words: "1 exploration", "4 explorations" (0 when absent).
pub fn counted(n: &Value, one: &str, many: &str) -> String {
    let n = n.as_u64().unwrap_or(0);
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The trust report as indented lines: the declared data, then per player what was checked and
/// each count that was taken as declared, then the warnings.
pub fn trust_text(t: &Value) -> String {
    let mut text = String::new();
    let source = |key: &str| t["declared"][key].as_str().map_or_else(|| "no source given".to_owned(), str::to_owned);
    if !t["declared"].is_null() {
        text.push_str(&format!(
            "\n  trust: {} entries checked against the rules; declared by the log, not checked: catalogue ({}); board ({}); encounter content",
            t["entries_checked"],
            source("catalogue"),
            source("board")
        ));
    }
    for p in t["players"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let verified = &p["verified"];
        let trusted: Vec<String> = p["trusted"]
            .as_object()
            .map(|o| {
                o.iter()
                    .filter(|(_, n)| n.as_i64().is_some_and(|n| n != 0))
                    .map(|(k, n)| format!("{} {n}", k.replace('_', " ")))
                    .collect()
            })
            .unwrap_or_default();
        let trusted = if trusted.is_empty() { "nothing".to_owned() } else { trusted.join(", ") };
        text.push_str(&format!(
            "\n  {}: checked {} ({} against cave tables); trusted: {trusted}",
            p["name"].as_str().unwrap_or("?"),
            counted(&verified["explorations"], "exploration", "explorations"),
            counted(&verified["paragraphs_checked"], "first paragraph", "first paragraphs"),
        ));
    }
    for w in t["warnings"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let at = w["entry"].as_u64().map(|e| format!(" at entry {e}")).unwrap_or_default();
        let player = w["player"].as_u64().map(|p| format!(" (player {p})")).unwrap_or_default();
        text.push_str(&format!(
            "\n  warning {}{at}{player}: {}",
            w["code"].as_str().unwrap_or(""),
            w["message"].as_str().unwrap_or("")
        ));
    }
    text
}

/// What `chronicle state` finds in a log of another game.
pub enum StateOutcome {
    /// The state after the entry asked for, as the engine's view, and the log's status.
    State(Status, Value),
    /// No state: the setup (or the envelope) is invalid; the replay's summary line says why.
    NoSetup(String),
}

/// `chronicle state` for a log of another game: the state after entry `at` (0-based; after the
/// last legal entry when `None`). An entry that does not exist or is not legal is an `Err`.
pub fn state(file: &str, bytes: &[u8], kind: GameKind, at: Option<usize>) -> Result<StateOutcome, String> {
    let verdict = games::verdict_of(bytes, Some(kind.format()));
    if verdict.player_count.is_none() {
        let line = replay_text(file, &GameReplay { kind, verdict, waiting: None, trust: None });
        return Ok(StateOutcome::NoSetup(line));
    }
    let s = games::state_at(Some(kind), bytes, at)?;
    Ok(StateOutcome::State(verdict.status, s.state))
}
