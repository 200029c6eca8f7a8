//! The reports of `chronicle replay` and `chronicle state`, the same for every game: every
//! answer comes from the registry (`chronicle_ingest::games`) in the game-agnostic terms of a
//! verdict, so the command line holds no rule of any game. A game's extras come from its spec
//! and engine: its score rows and counters by id, and the trust report of a game that has one.

use serde_json::{json, Map, Value};

use chronicle_game::{GameKind, PlayerVerdict, Status, Verdict};
use chronicle_ingest::games;

/// What `chronicle replay` says about one log.
pub struct GameReplay {
    /// The game its `format` names (`None`: no game Chronicle knows, refused by the envelope).
    pub kind: Option<GameKind>,
    pub verdict: Verdict,
    /// Who or what the game waits for (incomplete games only).
    pub waiting: Option<String>,
    /// What the replay took as declared (a game with `capabilities.trust_report`).
    pub trust: Option<Value>,
}

/// The game a log's `format` names, if Chronicle knows it.
pub fn kind_of(bytes: &[u8]) -> Option<GameKind> {
    chronicle_ingest::canonical::format_of(bytes).and_then(|f| GameKind::from_format(&f))
}

/// Replays a log through the registry (the envelope's verdict for a log of no known game).
pub fn replay(bytes: &[u8]) -> GameReplay {
    let kind = kind_of(bytes);
    let format = kind.map(GameKind::format);
    let verdict = games::verdict_of(bytes, format);
    let waiting = if verdict.status == Status::Incomplete {
        games::open_view(bytes, format).map(|v| waiting_text(&v))
    } else {
        None
    };
    let trust = kind.and_then(|_| games::trust_report(bytes, format));
    GameReplay { kind, verdict, waiting, trust }
}

/// Who is to act in a position, by name (the engine's typed view of it).
fn waiting_text(v: &chronicle_game::BoardView) -> String {
    if let Some(text) = &v.waiting_for {
        return format!(", waiting for {text}");
    }
    match v.to_move.and_then(|p| v.players.get(p)) {
        Some(p) => format!(", {} to move", seat_words(&p.name, v.to_move.unwrap_or(0))),
        None => format!(", {}", v.phase),
    }
}

/// A player as people say it: the name and the seat counted from 1.
pub fn seat_words(name: &str, seat: usize) -> String {
    format!("{name} (seat {})", seat + 1)
}

/// The name of seat `seat` of a verdict, with its number counted from 1.
fn seat_of(v: &Verdict, seat: usize) -> String {
    v.players.get(seat).map_or_else(|| format!("seat {}", seat + 1), |p| seat_words(&p.name, seat))
}

/// One player of a complete game in a JSON report: the name, the score by row id with the
/// total, and the game's counters by id (when it has any).
fn player_json(p: &PlayerVerdict) -> Value {
    let mut score = Map::new();
    if let Some(s) = &p.score {
        for row in &s.rows {
            score.insert(row.id.clone(), json!(row.points));
        }
        score.insert("total".into(), json!(s.total));
    }
    let mut o = Map::new();
    o.insert("name".into(), json!(p.name));
    o.insert("score".into(), Value::Object(score));
    if !p.counters.is_empty() {
        let counters: Map<String, Value> = p.counters.iter().map(|c| (c.id.clone(), json!(c.value))).collect();
        o.insert("counters".into(), Value::Object(counters));
    }
    Value::Object(o)
}

/// One line of `chronicle replay --json`: `file`, `game` (when the format names one),
/// `status`, `round`, `engine`, `error` (invalid only); `players`, `winners` and
/// `claimed_mismatches` (complete only); `trust` for a game with a trust report.
pub fn replay_json(file: &str, r: &GameReplay) -> Value {
    let v = &r.verdict;
    let mut o = Map::new();
    o.insert("file".into(), json!(file));
    if let Some(kind) = r.kind {
        o.insert("game".into(), json!(kind.id()));
    }
    o.insert("status".into(), json!(v.status));
    o.insert("round".into(), json!(v.round_reached));
    o.insert("engine".into(), json!(v.engine_version));
    if let Some(e) = &v.error {
        o.insert("error".into(), json!(e));
    }
    if v.status == Status::Complete {
        let winners: Vec<usize> = v.players.iter().enumerate().filter(|(_, p)| p.winner).map(|(i, _)| i).collect();
        o.insert("players".into(), v.players.iter().map(player_json).collect());
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

/// The human summary of one replay, with the trust report under it. A log of a known game is
/// named by its game (`Village, valid, complete: …`).
pub fn replay_text(file: &str, r: &GameReplay) -> String {
    let v = &r.verdict;
    let name = r.kind.map_or_else(String::new, |k| format!("{}, ", k.spec().name));
    let mut text = match v.status {
        Status::Invalid => {
            let e = v.error.as_ref();
            let at = e
                .and_then(|e| e.entry)
                .map_or_else(|| "the document".to_owned(), |i| format!("entry {} (entries[{i}])", i + 1));
            // A player index that names no seat is the error itself, said by the message.
            let seat = e.and_then(|e| e.player).filter(|&p| p < v.players.len());
            let player = seat.map(|p| format!(" by {}", seat_of(v, p))).unwrap_or_default();
            let (code, msg) = e.map_or(("", ""), |e| (e.code.as_str(), e.message.as_str()));
            format!("{file}: {name}invalid at {at}{player}: {code}: {}", chronicle_game::bounded_message(msg))
        }
        Status::Incomplete => {
            let waiting = r.waiting.as_deref().unwrap_or("");
            format!("{file}: {name}valid, incomplete at round {}{waiting}", v.round_reached)
        }
        Status::Complete => complete_text(file, &name, v),
    };
    if let Some(t) = &r.trust {
        text.push_str(&trust_text(t));
    }
    text
}

fn complete_text(file: &str, name: &str, v: &Verdict) -> String {
    let total = |p: &PlayerVerdict| p.score.as_ref().map_or(0, |s| s.total);
    let list: Vec<String> = v.players.iter().map(|p| format!("{} {}", p.name, total(p))).collect();
    let winners: Vec<&str> = v.players.iter().filter(|p| p.winner).map(|p| p.name.as_str()).collect();
    let mut line = format!("{file}: {name}valid, complete: {}; winner: {}", list.join(", "), winners.join(" and "));
    for m in mismatches(v) {
        let seat = m["player"].as_u64().and_then(|p| usize::try_from(p).ok()).unwrap_or(0);
        line.push_str(&format!(
            "\n  claimed score of {} is {}, computed {}",
            seat_of(v, seat),
            m["claimed"],
            m["computed"]
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
        let at = w["entry"].as_u64().map(|e| format!(" at entry {} (entries[{e}])", e + 1)).unwrap_or_default();
        let named = |p: u64| {
            let player = t["players"].as_array().and_then(|ps| ps.iter().find(|x| x["seat"] == p));
            let name = player.and_then(|x| x["name"].as_str()).unwrap_or("?");
            format!(" ({})", seat_words(name, usize::try_from(p).unwrap_or(0)))
        };
        let player = w["player"].as_u64().map(named).unwrap_or_default();
        text.push_str(&format!(
            "\n  warning {}{at}{player}: {}",
            w["code"].as_str().unwrap_or(""),
            w["message"].as_str().unwrap_or("")
        ));
    }
    text
}

/// What `chronicle state` finds in a log.
pub enum StateOutcome {
    /// The state after the entry asked for, as the engine's view, and the log's status.
    State(Status, Value),
    /// No state: the setup (or the envelope) is invalid; the replay's summary line says why.
    NoSetup(String),
}

/// `chronicle state`: the state after entry `at` (0-based; after the last legal entry when
/// `None`). An entry that does not exist or is not legal is an `Err`.
pub fn state(file: &str, bytes: &[u8], at: Option<usize>) -> Result<StateOutcome, String> {
    let kind = kind_of(bytes);
    let verdict = games::verdict_of(bytes, kind.map(GameKind::format));
    if verdict.player_count.is_none() {
        let line = replay_text(file, &GameReplay { kind, verdict, waiting: None, trust: None });
        return Ok(StateOutcome::NoSetup(line));
    }
    let s = games::state_at(kind, bytes, at)?;
    Ok(StateOutcome::State(verdict.status, s.state))
}

/// Totals for `chronicle replay --summary`.
#[derive(Debug, Default)]
pub struct Totals {
    pub logs: usize,
    pub complete: usize,
    pub incomplete: usize,
    pub invalid: usize,
}

impl Totals {
    pub fn add(&mut self, status: Status) {
        self.logs += 1;
        match status {
            Status::Complete => self.complete += 1,
            Status::Incomplete => self.incomplete += 1,
            Status::Invalid => self.invalid += 1,
        }
    }

    pub fn json(&self) -> Value {
        json!({ "logs": self.logs, "complete": self.complete, "incomplete": self.incomplete, "invalid": self.invalid })
    }
}

/// The legal alternatives to an illegal entry, one per line under the report (`replay
/// --explain`).
pub fn alternatives_text(legal: &chronicle_game::Legal) -> String {
    let mut text = String::new();
    if legal.entries.is_empty() {
        text.push_str("\n  no legal alternative here (the setup or the envelope is invalid, or the game is over)");
        return text;
    }
    let more = if legal.complete { "" } else { " (not every legal entry: see docs/api.md, legalEntries)" };
    text.push_str(&format!("\n  legal instead{more}:"));
    for entry in &legal.entries {
        text.push_str(&format!("\n    {entry}"));
    }
    text
}
