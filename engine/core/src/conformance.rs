//! Conformance checks that every game's engine must pass, whatever its rules (after
//! open_spiel's game tests): a game gets them all by being listed, not by writing tests of its
//! own. Behind the `conformance` feature, so release builds do not carry them.
//!
//! Each check is generic over a [`GameEngine`] and panics with a message that names the game,
//! the seed and player count of the simulated log, and the entry where it failed. They start
//! from games the engine's own bots play ([`GameEngine::simulate`]), so a check needs no
//! fixture and reaches every player count the game's spec allows. [`check_all`] runs every
//! check on one shared set of simulated games, bounded so that one game's whole suite runs in
//! a few seconds of a debug build.
//!
//! What the checks pin:
//! - [`simulated_games_replay_complete_valid_and_deterministic`]: a bot game is a complete,
//!   valid game of the right shape, and the same bytes give the same verdict every time;
//! - [`how_a_log_is_written_never_changes_its_verdict`]: the engines' fast readings (the
//!   single pass, member-by-member reading) and the tree reading they fall back on agree
//!   (messages aside for the games of [`MESSAGES_QUOTE_POSITIONS`]);
//! - [`state_at_every_entry_of_a_valid_log`]: every position of a valid log can be shown;
//! - [`every_offered_legal_entry_is_accepted`]: `legal_entries` never offers what the replay
//!   refuses, and [`a_complete_legal_list_offers_the_entry_played`]: a list that says it is
//!   complete has the move that was played;
//! - [`envelope_faults_have_the_shared_codes`]: a fault of the envelope (the part every
//!   game's log shares) gets the same code, `entry` and message from every engine (the shared
//!   reader's, `chronicle_game::envelope`);
//! - [`the_timeline_agrees_with_the_ledger_and_the_verdict`]: every position's view, from one
//!   walk, agrees with the ledger, the open view and the verdict's players.
//! - [`the_ledger_has_one_line_per_applied_entry`]: the ledger accounts for every legal entry,
//!   in order.

use std::fmt;

use serde_json::{Map, Value};

use crate::engine::GameEngine;
use crate::envelope::MAX_LOG_BYTES;
use crate::kind::GameKind;
use crate::verdict::{Status, Verdict};

/// Seeds of the simulated games (each played at every player count of the game's spec).
pub const SEEDS: &[u64] = &[1, 2, 3];

/// At most this many positions of one log are sampled for its legal entries, spread evenly
/// over the log (offering and replaying every legal entry at every position is quadratic).
pub const LEGAL_POSITIONS: usize = 12;

/// At most this many of the legal entries offered at a position are appended and replayed
/// (the first ones in the engine's order, and the last one).
pub const LEGAL_ENTRIES_TRIED: usize = 6;

/// How many legal entries are asked for at a position.
pub const LEGAL_LIMIT: usize = 64;

/// A game played by the engine's bots, as the checks use it.
#[derive(Clone, Debug)]
pub struct Simulated {
    pub kind: GameKind,
    pub seed: u64,
    pub players: u8,
    /// The log as [`GameEngine::simulate`] made it.
    pub log: Value,
    /// The log written compactly (`serde_json::to_vec`).
    pub bytes: Vec<u8>,
}

impl Simulated {
    /// The log's entries.
    pub fn entries(&self) -> &[Value] {
        self.log.get("entries").and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }

    /// The log with its first `n` entries, followed by `extra` when given, written compactly.
    /// A prefix is a game in progress: a `claimed` score (which only a finished game can
    /// match) is left out.
    pub fn prefix(&self, n: usize, extra: Option<&Value>) -> Vec<u8> {
        let mut log = self.log.clone();
        if let Some(obj) = log.as_object_mut() {
            obj.remove("claimed");
            let mut entries: Vec<Value> = self.entries()[..n].to_vec();
            entries.extend(extra.cloned());
            obj.insert("entries".to_owned(), Value::Array(entries));
        }
        compact(&log)
    }
}

impl Simulated {
    /// The whole log (its `claimed` scores kept) with `entry` appended, written compactly.
    pub fn with_entry(&self, entry: &Value) -> Vec<u8> {
        let mut log = self.log.clone();
        if let Some(entries) = log.get_mut("entries").and_then(Value::as_array_mut) {
            entries.push(entry.clone());
        }
        compact(&log)
    }
}

impl fmt::Display for Simulated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (simulate seed {}, {} players)", self.kind, self.seed, self.players)
    }
}

fn compact(log: &Value) -> Vec<u8> {
    serde_json::to_vec(log).unwrap_or_default()
}

fn verdict<E: GameEngine>(log: &[u8]) -> Verdict {
    E::verdict(&E::replay(log))
}

fn describe(v: &Verdict) -> String {
    match &v.error {
        Some(e) => format!(
            "{} after {} entries: entry {:?}, code `{}`: {}",
            v.status.id(),
            v.entries_applied,
            e.entry,
            e.code,
            e.message
        ),
        None => format!("{} after {} entries", v.status.id(), v.entries_applied),
    }
}

/// The games of [`SEEDS`] at every player count of `E`'s spec, each simulated twice to check
/// that a seed always gives the same log.
pub fn simulated<E: GameEngine>() -> Vec<Simulated> {
    let spec = E::KIND.spec();
    let mut games = Vec::new();
    for players in spec.players() {
        for &seed in SEEDS {
            let game = || {
                E::simulate(seed, players).unwrap_or_else(|e| {
                    panic!("{} (simulate seed {seed}, {players} players): simulate refused: {e}", E::KIND)
                })
            };
            let log = game();
            assert_eq!(
                log,
                game(),
                "{} (simulate seed {seed}, {players} players): the same seed gave two different logs",
                E::KIND
            );
            games.push(Simulated { kind: E::KIND, seed, players, bytes: compact(&log), log });
        }
    }
    games
}

/// A bot game replays as a complete, valid game of its engine (its format, player count, one
/// score and rank per player, every entry applied), and the same bytes give the identical
/// verdict twice: verdicts are stored and compared, so a replay must be a pure function of
/// the bytes (and so must the ledger and the state shown after the last entry).
pub fn simulated_games_replay_complete_valid_and_deterministic<E: GameEngine>(games: &[Simulated]) {
    for g in games {
        assert_eq!(
            g.log.get("format").and_then(Value::as_str),
            Some(E::KIND.format()),
            "{g}: a simulated log has its game's format"
        );
        let first = verdict::<E>(&g.bytes);
        let second = verdict::<E>(&g.bytes);
        assert_eq!(first, second, "{g}: the same bytes gave two different verdicts");
        assert_eq!(E::ledger(&g.bytes), E::ledger(&g.bytes), "{g}: the same bytes gave two different ledgers");
        assert_eq!(E::open_state(&g.bytes), E::open_state(&g.bytes), "{g}: the same bytes gave two different states");
        assert_eq!(first.status, Status::Complete, "{g}: a simulated game is complete; got {}", describe(&first));
        assert_eq!(first.error, None, "{g}: a complete game has no error");
        assert_eq!(first.game, Some(E::KIND), "{g}: the verdict names its game");
        assert_eq!(first.engine_version, E::VERSION, "{g}: the verdict carries the engine's version");
        assert_eq!(first.player_count, Some(g.players), "{g}: the verdict's player count");
        assert_eq!(first.entries_applied, g.entries().len(), "{g}: every entry of a complete game is applied");
        assert_eq!(first.players.len(), usize::from(g.players), "{g}: one player verdict per seat");
        let spec = E::KIND.spec();
        for (seat, p) in first.players.iter().enumerate() {
            let score = p.score.as_ref().unwrap_or_else(|| panic!("{g}: seat {seat} of a complete game has no score"));
            let rows: Vec<&str> = score.rows.iter().map(|r| r.id.as_str()).collect();
            let spec_rows: Vec<&str> = spec.score_rows.iter().map(|r| r.id).collect();
            assert_eq!(rows, spec_rows, "{g}: seat {seat}: the score rows are the spec's, in its order");
            assert_eq!(
                score.total,
                score.rows.iter().map(|r| r.points).sum::<i64>(),
                "{g}: seat {seat}: the total is the sum of the rows"
            );
            assert!(p.rank.is_some(), "{g}: seat {seat} of a complete game has no rank");
            let counters: Vec<&str> = p.counters.iter().map(|c| c.id.as_str()).collect();
            let spec_counters: Vec<&str> = spec.counters.iter().map(|c| c.id).collect();
            assert_eq!(counters, spec_counters, "{g}: seat {seat}: the counters are the spec's, in its order");
        }
        assert!(first.players.iter().any(|p| p.winner), "{g}: a complete game has a winner");
        if let Some(variant) = &first.variant {
            assert!(spec.variants.contains(&variant.as_str()), "{g}: variant `{variant}` is not in the spec");
        }
    }
}

/// The ways of writing one log that the checks try: each is the same JSON document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writing {
    /// `serde_json::to_string_pretty`.
    Pretty,
    /// Every object's members in reverse order (so `entries` comes before `setup`).
    Reordered,
    /// Spaces, tabs, carriage returns and newlines around every token.
    Whitespace,
    /// Every character of every string (member names too) as a `\u` escape.
    Escaped,
}

impl Writing {
    pub const ALL: [Writing; 4] = [Writing::Pretty, Writing::Reordered, Writing::Whitespace, Writing::Escaped];

    /// `log` written this way.
    pub fn write(self, log: &Value) -> Vec<u8> {
        match self {
            Writing::Pretty => serde_json::to_string_pretty(log).unwrap_or_default().into_bytes(),
            Writing::Reordered => compact(&reordered(log)),
            Writing::Whitespace => {
                let mut out = String::new();
                write_spaced(log, &mut out);
                out.into_bytes()
            }
            Writing::Escaped => {
                let mut out = String::new();
                write_escaped(log, &mut out);
                out.into_bytes()
            }
        }
    }
}

/// `v` with every object's members in reverse order (the document is the same: JSON objects
/// are unordered).
fn reordered(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            Value::Object(m.iter().rev().map(|(k, v)| (k.clone(), reordered(v))).collect::<Map<_, _>>())
        }
        Value::Array(a) => Value::Array(a.iter().map(reordered).collect()),
        other => other.clone(),
    }
}

/// JSON whitespace (RFC 8259 §2: space, tab, line feed, carriage return) between tokens.
const SPACE: &str = " \t\r\n ";

fn write_spaced(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                out.push_str(if i == 0 { SPACE } else { ",\n\t" });
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(SPACE);
                out.push(':');
                out.push_str(SPACE);
                write_spaced(v, out);
                out.push_str(SPACE);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                out.push_str(if i == 0 { SPACE } else { " ,\r\n" });
                write_spaced(v, out);
            }
            out.push_str(SPACE);
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn escaped(s: &str, out: &mut String) {
    out.push('"');
    for unit in s.encode_utf16() {
        out.push_str(&format!("\\u{unit:04x}"));
    }
    out.push('"');
}

fn write_escaped(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                escaped(k, out);
                out.push(':');
                write_escaped(v, out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_escaped(v, out);
            }
            out.push(']');
        }
        Value::String(s) => escaped(s, out),
        other => out.push_str(&other.to_string()),
    }
}

/// The games whose error messages quote where in the text a fault is (a parser's line and
/// column, which depend on how the log is written): their verdicts are compared without the
/// message (the code, entry and player still must match). Measured when written: Above and
/// Below words an entry it cannot read with serde's position inside the entry's own text
/// (`entry 33: entry: missing field `type` at line 3 column 5`); Caverna and Village give the
/// same message however the log is written. Delete a game's line once its messages no longer
/// depend on the writing.
pub const MESSAGES_QUOTE_POSITIONS: &[&str] = &["above-and-below"];

/// `v` as compared across writings: without its error's message for a game of
/// [`MESSAGES_QUOTE_POSITIONS`].
fn as_compared(v: &Verdict) -> Verdict {
    let mut v = v.clone();
    if let (Some(e), Some(game)) = (&mut v.error, v.game) {
        if MESSAGES_QUOTE_POSITIONS.contains(&game.id()) {
            e.message.clear();
        }
    }
    v
}

/// How a log is written (pretty-printed, members reordered, whitespace, escapes) never changes
/// its verdict: the engines read plainly written logs on a fast path (one scan, or member by
/// member) and fall back on the tree reading for anything else, and both must say the same.
/// Checked on the complete log, on a prefix (a game in progress) and on that prefix with an
/// entry no game has (an invalid log), so the error paths are compared too.
pub fn how_a_log_is_written_never_changes_its_verdict<E: GameEngine>(games: &[Simulated]) {
    for g in games {
        let half = g.entries().len() / 2;
        let bogus = serde_json::json!({ "conformance": "not an entry of any game" });
        let cases = [
            ("the complete log", g.log.clone()),
            ("its first half", serde_json::from_slice(&g.prefix(half, None)).unwrap_or_default()),
            (
                "its first half and an entry of no game",
                serde_json::from_slice(&g.prefix(half, Some(&bogus))).unwrap_or_default(),
            ),
        ];
        for (what, log) in cases {
            let plain = verdict::<E>(&compact(&log));
            for writing in Writing::ALL {
                let other = verdict::<E>(&writing.write(&log));
                assert_eq!(
                    as_compared(&plain),
                    as_compared(&other),
                    "{g}: {what} written {writing:?} gave another verdict (plain: {}; {writing:?}: {})",
                    describe(&plain),
                    describe(&other)
                );
            }
        }
    }
}

/// Every position of a valid log can be shown: `state_at(Some(i))` for each applied entry and
/// `state_at(None)` answer, the round never goes back, and the entry after the last one is
/// refused (it does not exist). Clients step through stored logs entry by entry.
pub fn state_at_every_entry_of_a_valid_log<E: GameEngine>(g: &Simulated) {
    let applied = verdict::<E>(&g.bytes).entries_applied;
    let mut round = 0;
    for i in 0..applied {
        let state = E::state_at(&g.bytes, Some(i)).unwrap_or_else(|e| panic!("{g}: entry {i}: state_at refused: {e}"));
        assert!(state.round >= round, "{g}: entry {i}: the round went back from {round} to {}", state.round);
        round = state.round;
    }
    if let Err(e) = E::state_at(&g.bytes, None) {
        panic!("{g}: state_at(None) refused a valid log: {e}");
    }
    assert!(
        E::state_at(&g.bytes, Some(applied)).is_err(),
        "{g}: state_at(Some({applied})) answered past the last entry"
    );
}

/// The positions of a log of `n` entries sampled for [`every_offered_legal_entry_is_accepted`]:
/// at most [`LEGAL_POSITIONS`], evenly spread, the first included.
pub fn sampled_positions(n: usize) -> Vec<usize> {
    let step = n.div_ceil(LEGAL_POSITIONS).max(1);
    (0..n).step_by(step).collect()
}

/// Every legal entry an engine offers is accepted: at sampled positions `i` of a bot game,
/// each entry of `legal_entries(replay_until(log, i))` put in place of entry `i` (the entries
/// after it dropped) replays without error, applied as entry `i`. Clients build entries from
/// what the engine offers, so an offer the replay refuses is a log no one can record. While
/// the game goes on, an engine that says its list is complete must offer something; after
/// the last entry of a complete game, what it still offers (a window the log left open) must
/// keep the game complete.
pub fn every_offered_legal_entry_is_accepted<E: GameEngine>(g: &Simulated) {
    every_offered_legal_entry_is_accepted_at::<E>(g, &sampled_positions(g.entries().len()), LEGAL_ENTRIES_TRIED);
}

/// [`every_offered_legal_entry_is_accepted`] at the given positions, with up to `tried` of
/// the entries offered at each (and the last one): for a deeper sweep than the suite's.
pub fn every_offered_legal_entry_is_accepted_at<E: GameEngine>(g: &Simulated, positions: &[usize], tried: usize) {
    let n = g.entries().len();
    for &i in positions.iter().filter(|&&i| i < n) {
        let legal = E::legal_entries(&E::replay_until(&g.bytes, i), LEGAL_LIMIT);
        assert!(
            !(legal.complete && legal.entries.is_empty()),
            "{g}: entry {i}: no legal entry offered (and the list says it is complete), yet the log's own entry {i} \
             is legal: {}",
            g.entries()[i]
        );
        let mut offered: Vec<&Value> = legal.entries.iter().take(tried).collect();
        offered.extend(legal.entries.last().filter(|_| legal.entries.len() > tried));
        for entry in offered {
            let v = verdict::<E>(&g.prefix(i, Some(entry)));
            assert!(
                v.status != Status::Invalid && v.entries_applied == i + 1,
                "{g}: entry {i}: the offered legal entry {entry} was refused: {}",
                describe(&v)
            );
        }
    }
    // After the last entry, windows the log left open (decisions a log may leave out, which
    // the end of the log settles by default) may still be offered: each must be accepted as
    // one more entry of the complete game.
    let end = E::legal_entries(&E::replay_until(&g.bytes, usize::MAX), LEGAL_LIMIT);
    for entry in end.entries.iter().take(tried) {
        let v = verdict::<E>(&g.with_entry(entry));
        assert!(
            v.status == Status::Complete && v.entries_applied == n + 1,
            "{g}: after the last entry {}: the offered legal entry {entry} was refused: {}",
            n.saturating_sub(1),
            describe(&v)
        );
    }
}

/// A list of legal entries that says it is complete offers the entry that was played: at
/// sampled positions of a bot game where `legal_entries` says its list is every legal entry,
/// one of them leads to the same state as the log's own entry (the same move, however the
/// engine writes it). A client that offers only the engine's list must let the players make
/// every move the rules allow.
pub fn a_complete_legal_list_offers_the_entry_played<E: GameEngine>(g: &Simulated) {
    let n = g.entries().len();
    for i in sampled_positions(n) {
        let legal = E::legal_entries(&E::replay_until(&g.bytes, i), LEGAL_LIMIT);
        if !legal.complete {
            continue;
        }
        let played = E::state_view(&E::replay_until(&g.bytes, i + 1));
        let offered = |e: &Value| E::state_view(&E::replay_until(&g.prefix(i, Some(e)), i + 1)) == played;
        assert!(
            legal.entries.iter().any(offered),
            "{g}: entry {i}: the complete list of {} legal entries has none with the effect of the entry played, {}",
            legal.entries.len(),
            g.entries()[i]
        );
    }
}

/// The ledger has one line per applied legal entry, with the entries' indices in order: for a
/// complete log, for a prefix, and for a log invalid at an entry (whose ledger stops before
/// it). Without a valid envelope it is empty.
pub fn the_ledger_has_one_line_per_applied_entry<E: GameEngine>(g: &Simulated) {
    let half = g.entries().len() / 2;
    let bogus = serde_json::json!({ "conformance": "not an entry of any game" });
    for (what, log) in [
        ("the complete log", g.bytes.clone()),
        ("its first half", g.prefix(half, None)),
        ("its first half and an entry of no game", g.prefix(half, Some(&bogus))),
    ] {
        let applied = verdict::<E>(&log).entries_applied;
        let lines: Vec<usize> = E::ledger(&log).iter().map(|l| l.entry).collect();
        let expected: Vec<usize> = (0..applied).collect();
        if lines != expected {
            let first = lines.iter().zip(&expected).position(|(a, b)| a != b).unwrap_or(lines.len().min(applied));
            panic!(
                "{g}: {what}: the ledger has {} lines for {applied} applied entries; first difference at line {first} \
                 (entry {:?}, expected {:?})",
                lines.len(),
                lines.get(first),
                expected.get(first)
            );
        }
    }
    assert!(E::ledger(b"[]").is_empty(), "{}: the ledger of a log that is not an object is not empty", E::KIND);
}

/// The timeline (every position from one walk) agrees with the rest of the engine: one step
/// per applied entry carrying that entry's ledger line; its last view is the open view; every
/// view has one panel per seat, in seat order, named as the verdict names the players, and a
/// grid exactly when the spec says its positions have a board (`capabilities.board_view`).
pub fn the_timeline_agrees_with_the_ledger_and_the_verdict<E: GameEngine>(g: &Simulated) {
    let v = verdict::<E>(&g.bytes);
    let timeline = E::timeline(&g.bytes).unwrap_or_else(|| panic!("{g}: a valid log has no timeline"));
    assert_eq!(timeline.steps.len(), v.entries_applied, "{g}: one timeline step per applied entry");
    assert_eq!(timeline.ledger(), E::ledger(&g.bytes), "{g}: the timeline's ledger is the ledger");
    let last = timeline.steps.last().map_or(&timeline.setup, |s| &s.view);
    assert_eq!(E::open_view(&g.bytes).as_ref(), Some(last), "{g}: the open view is the timeline's last");
    let names: Vec<&str> = v.players.iter().map(|p| p.name.as_str()).collect();
    let board = E::KIND.spec().capabilities.board_view;
    for view in std::iter::once(&timeline.setup).chain(timeline.steps.iter().map(|s| &s.view)) {
        let shown: Vec<(Option<usize>, &str)> = view.players.iter().map(|p| (p.seat, p.name.as_str())).collect();
        let expected: Vec<(Option<usize>, &str)> = names.iter().enumerate().map(|(i, n)| (Some(i), *n)).collect();
        assert_eq!(shown, expected, "{g}: a view has one panel per seat, named as the verdict");
        assert!(view.players.iter().all(|p| p.grid.is_some() == board), "{g}: a grid exactly when the spec says");
    }
    for step in &timeline.steps {
        let mut sum: std::collections::BTreeMap<(usize, &str), i64> = std::collections::BTreeMap::new();
        for c in step.automatic.iter().chain(&step.own) {
            *sum.entry((c.player, c.item.as_str())).or_default() += c.delta;
        }
        sum.retain(|_, d| *d != 0);
        let line: std::collections::BTreeMap<(usize, &str), i64> =
            step.line.changes.iter().map(|c| ((c.player, c.item.as_str()), c.delta)).collect();
        assert_eq!(
            sum, line,
            "{g}: entry {}: the automatic steps and the entry's own changes make its line",
            step.line.entry
        );
    }
    assert!(E::timeline(b"[]").is_none(), "{}: a log that is not an object has no timeline", E::KIND);
    if v.status == crate::Status::Complete {
        let totals: Vec<Option<i64>> = v.players.iter().map(|p| p.score.as_ref().map(|s| s.total)).collect();
        let shown: Vec<Option<i64>> = last.players.iter().map(|p| p.score.as_ref().map(|s| s.total)).collect();
        assert_eq!(shown, totals, "{g}: the last entry of a complete game shows the final score");
    }
}

/// A fault of a log's envelope, built from a valid log of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvelopeFault {
    /// The bytes are not JSON.
    NotJson,
    /// A JSON object followed by more text.
    TrailingText,
    /// The bytes are not UTF-8.
    NotUtf8,
    /// JSON, but an array rather than an object.
    NotAnObject,
    /// No `format` member.
    FormatMissing,
    /// `format` names no game.
    FormatUnknown,
    /// `format` names another game.
    FormatOfAnotherGame,
    /// `format` is not a string.
    FormatNotAString,
    /// No `setup` member.
    SetupMissing,
    /// `setup` is not an object.
    SetupNotAnObject,
    /// No `entries` member.
    EntriesMissing,
    /// `entries` is an object, not an array.
    EntriesNotAnArray,
    /// A top-level member no format defines.
    UnknownTopLevelField,
    /// `meta` is not an object.
    MetaNotAnObject,
    /// A member of `meta` that it does not define.
    UnknownMetaField,
    /// A valid log padded with whitespace past [`MAX_LOG_BYTES`].
    TooLarge,
}

/// What an engine answers for an envelope fault: the error's code and `entry`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub code: String,
    pub entry: Option<usize>,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.entry {
            Some(e) => write!(f, "`{}` at entry {e}", self.code),
            None => write!(f, "`{}`, entry null", self.code),
        }
    }
}

/// The unified answer every engine must give for each envelope fault: the envelope's codes of
/// `docs/errors.md` ("The document"), with `entry` null since no entry is at fault.
pub const EXPECTED_ENVELOPE_CODES: &[(EnvelopeFault, &str)] = &[
    (EnvelopeFault::NotJson, "malformed_json"),
    (EnvelopeFault::TrailingText, "malformed_json"),
    (EnvelopeFault::NotUtf8, "malformed_json"),
    (EnvelopeFault::NotAnObject, "malformed"),
    (EnvelopeFault::FormatMissing, "bad_format"),
    (EnvelopeFault::FormatUnknown, "bad_format"),
    (EnvelopeFault::FormatOfAnotherGame, "bad_format"),
    (EnvelopeFault::FormatNotAString, "bad_format"),
    (EnvelopeFault::SetupMissing, "malformed"),
    (EnvelopeFault::SetupNotAnObject, "malformed"),
    (EnvelopeFault::EntriesMissing, "malformed"),
    (EnvelopeFault::EntriesNotAnArray, "malformed"),
    (EnvelopeFault::UnknownTopLevelField, "unknown_field"),
    (EnvelopeFault::MetaNotAnObject, "malformed"),
    (EnvelopeFault::UnknownMetaField, "unknown_field"),
    (EnvelopeFault::TooLarge, "log_too_large"),
];

/// The "code" of [`Answer`] for a fault the engine does not refuse (its verdict has no error).
pub const ACCEPTED: &str = "(accepted)";

/// The envelope faults of [`EXPECTED_ENVELOPE_CODES`], built from the bot game `g`.
pub fn envelope_fault(fault: EnvelopeFault, g: &Simulated) -> Vec<u8> {
    let with = |f: &dyn Fn(&mut Map<String, Value>)| {
        let mut log = g.log.clone();
        if let Some(obj) = log.as_object_mut() {
            f(obj);
        }
        compact(&log)
    };
    let other_format = GameKind::ALL.iter().find(|k| **k != g.kind).map_or("caverna-log/1", |k| k.format());
    match fault {
        EnvelopeFault::NotJson => b"{\"format\": ".to_vec(),
        EnvelopeFault::TrailingText => [g.bytes.as_slice(), b" x"].concat(),
        EnvelopeFault::NotUtf8 => {
            // A byte that is never UTF-8 (0xff) in place of a marker string's first letter.
            let marked = with(&|o| {
                o.insert("meta".to_owned(), serde_json::json!({ "id": "NOT-UTF-8" }));
            });
            let at = marked.windows(9).position(|w| w == b"NOT-UTF-8").unwrap_or(0);
            let mut bytes = marked;
            if let Some(b) = bytes.get_mut(at) {
                *b = 0xff;
            }
            bytes
        }
        EnvelopeFault::NotAnObject => b"[1, 2]".to_vec(),
        EnvelopeFault::FormatMissing => with(&|o| {
            o.remove("format");
        }),
        EnvelopeFault::FormatUnknown => with(&|o| {
            o.insert("format".to_owned(), Value::from("chess-log/1"));
        }),
        EnvelopeFault::FormatOfAnotherGame => with(&|o| {
            o.insert("format".to_owned(), Value::from(other_format));
        }),
        EnvelopeFault::FormatNotAString => with(&|o| {
            o.insert("format".to_owned(), Value::from(7));
        }),
        EnvelopeFault::SetupMissing => with(&|o| {
            o.remove("setup");
        }),
        EnvelopeFault::SetupNotAnObject => with(&|o| {
            o.insert("setup".to_owned(), Value::from(7));
        }),
        EnvelopeFault::EntriesMissing => with(&|o| {
            o.remove("entries");
        }),
        EnvelopeFault::EntriesNotAnArray => with(&|o| {
            o.insert("entries".to_owned(), serde_json::json!({}));
        }),
        EnvelopeFault::UnknownTopLevelField => with(&|o| {
            o.insert("conformance".to_owned(), Value::from(1));
        }),
        EnvelopeFault::MetaNotAnObject => with(&|o| {
            o.insert("meta".to_owned(), Value::from(7));
        }),
        EnvelopeFault::UnknownMetaField => with(&|o| {
            o.insert("meta".to_owned(), serde_json::json!({ "conformance": 1 }));
        }),
        EnvelopeFault::TooLarge => {
            let mut bytes = g.bytes.clone();
            bytes.resize(MAX_LOG_BYTES + 1, b' ');
            bytes
        }
    }
}

/// The message every engine gives for `fault` built from `g` (the shared wording of
/// [`crate::envelope::messages`], naming the format of the engine that reads the log), when
/// it does not quote a JSON reader's error.
pub fn expected_envelope_message(fault: EnvelopeFault, g: &Simulated) -> Option<String> {
    use crate::envelope::messages;
    let format = g.kind.format();
    let other_format = GameKind::ALL.iter().find(|k| **k != g.kind).map_or("caverna-log/1", |k| k.format());
    Some(match fault {
        EnvelopeFault::NotJson | EnvelopeFault::TrailingText | EnvelopeFault::NotUtf8 => return None,
        EnvelopeFault::UnknownMetaField => return None,
        EnvelopeFault::NotAnObject => messages::not_an_object(),
        EnvelopeFault::FormatMissing => messages::format_missing(format),
        EnvelopeFault::FormatUnknown => messages::format_not(&Value::from("chess-log/1"), format),
        EnvelopeFault::FormatOfAnotherGame => messages::format_not(&Value::from(other_format), format),
        EnvelopeFault::FormatNotAString => messages::format_not(&Value::from(7), format),
        EnvelopeFault::SetupMissing => messages::missing("setup"),
        EnvelopeFault::SetupNotAnObject => messages::not_an_object_member("setup"),
        EnvelopeFault::EntriesMissing => messages::missing("entries"),
        EnvelopeFault::EntriesNotAnArray => messages::not_an_array("entries"),
        EnvelopeFault::UnknownTopLevelField => messages::unknown_top_level_field("conformance"),
        EnvelopeFault::MetaNotAnObject => messages::not_an_object_member("meta"),
        EnvelopeFault::TooLarge => messages::too_large(MAX_LOG_BYTES + 1, MAX_LOG_BYTES),
    })
}

/// Envelope faults (the part every game's log shares: not JSON, not an object, `format`,
/// `setup`, `entries`, `meta`, an unknown member, the size bound) get the same code from every
/// engine, with `entry` null, and the same message ([`expected_envelope_message`]): services
/// and clients handle them once for all games. Every mismatch is reported at once, as a table.
pub fn envelope_faults_have_the_shared_codes<E: GameEngine>(g: &Simulated) {
    let mut wrong = Vec::new();
    for &(fault, expected) in EXPECTED_ENVELOPE_CODES {
        let v = verdict::<E>(&envelope_fault(fault, g));
        let (answer, message) = match v.error {
            Some(e) => (Answer { code: e.code, entry: e.entry }, Some(e.message)),
            None => (Answer { code: ACCEPTED.to_owned(), entry: None }, None),
        };
        let want = Answer { code: expected.to_owned(), entry: None };
        if answer != want {
            wrong.push(format!("  {fault:?}: answers {answer}; expected {want}"));
        }
        if let Some(expected) = expected_envelope_message(fault, g) {
            if message.as_deref() != Some(expected.as_str()) {
                wrong.push(format!("  {fault:?}: message {message:?}; expected {expected:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{g}: envelope faults answered otherwise than expected:\n{}", wrong.join("\n"));
}

/// Every check, on the bot games of [`simulated`]. The per-log checks that replay a log many
/// times (states, legal entries) run on the smallest and the largest player count of the first
/// seed, which bounds the suite's time whatever the game's player range.
pub fn check_all<E: GameEngine>() {
    let mut timer = Timer::new(E::KIND);
    let games = simulated::<E>();
    timer.lap("simulate");
    simulated_games_replay_complete_valid_and_deterministic::<E>(&games);
    timer.lap("replay");
    how_a_log_is_written_never_changes_its_verdict::<E>(&games);
    timer.lap("writings");
    let spec = E::KIND.spec();
    let first_seed = SEEDS[0];
    let sampled: Vec<&Simulated> = games
        .iter()
        .filter(|g| g.seed == first_seed && (g.players == spec.min_players || g.players == spec.max_players))
        .collect();
    for g in &sampled {
        state_at_every_entry_of_a_valid_log::<E>(g);
    }
    timer.lap("state_at");
    for g in &sampled {
        every_offered_legal_entry_is_accepted::<E>(g);
        a_complete_legal_list_offers_the_entry_played::<E>(g);
    }
    timer.lap("legal");
    for g in &sampled {
        the_ledger_has_one_line_per_applied_entry::<E>(g);
        the_timeline_agrees_with_the_ledger_and_the_verdict::<E>(g);
    }
    timer.lap("ledger and timeline");
    envelope_faults_have_the_shared_codes::<E>(&games[0]);
    timer.lap("envelope");
    eprintln!("{timer}");
}

/// The time each part of [`check_all`] took, printed at its end (seen with `--nocapture`), to
/// keep the suite's time in view.
struct Timer {
    kind: GameKind,
    start: std::time::Instant,
    last: std::time::Instant,
    laps: Vec<(&'static str, f64)>,
}

impl Timer {
    fn new(kind: GameKind) -> Timer {
        let now = std::time::Instant::now();
        Timer { kind, start: now, last: now, laps: Vec::new() }
    }

    fn lap(&mut self, what: &'static str) {
        let now = std::time::Instant::now();
        self.laps.push((what, (now - self.last).as_secs_f64()));
        self.last = now;
    }
}

impl fmt::Display for Timer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "conformance: {}: {:.1} s (", self.kind, self.start.elapsed().as_secs_f64())?;
        for (i, (what, secs)) in self.laps.iter().enumerate() {
            write!(f, "{}{what} {secs:.1} s", if i > 0 { ", " } else { "" })?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn log() -> Value {
        json!({"format": "x-log/1", "meta": {"id": "é☃ \"q\""}, "setup": {"players": ["A", "B"], "n": -1.5},
               "entries": [{"player": 0, "steps": 2}, [], {}, null, true]})
    }

    /// Every writing is the same JSON document, written otherwise than compactly: the check
    /// compares verdicts of one document, never of two.
    #[test]
    fn every_writing_is_the_same_document_written_otherwise() {
        let plain = compact(&log());
        for writing in Writing::ALL {
            let bytes = writing.write(&log());
            assert_ne!(bytes, plain, "{writing:?}");
            let read: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{writing:?}: {e}"));
            assert_eq!(read, log(), "{writing:?}");
        }
    }

    /// The reordering puts `entries` before `setup`, which the engines' single passes leave to
    /// the tree reading: the fallback is what it compares against.
    #[test]
    fn the_reordered_writing_puts_entries_before_the_setup() {
        let text = String::from_utf8(Writing::Reordered.write(&log())).unwrap_or_default();
        let at = |name: &str| text.find(name).unwrap_or(usize::MAX);
        assert!(at("\"entries\"") < at("\"setup\"") && at("\"setup\"") < at("\"format\""), "{text}");
    }

    #[test]
    fn the_escaped_writing_escapes_every_character_of_every_string() {
        let text = String::from_utf8(Writing::Escaped.write(&json!({"ab": ["é", "☃"]}))).unwrap_or_default();
        assert_eq!(text, r#"{"\u0061\u0062":["\u00e9","\u2603"]}"#);
    }

    #[test]
    fn sampled_positions_are_bounded_and_start_at_the_first_entry() {
        assert_eq!(sampled_positions(0), Vec::<usize>::new());
        assert_eq!(sampled_positions(3), vec![0, 1, 2]);
        for n in [1, 11, 12, 13, 500, 10_000] {
            let p = sampled_positions(n);
            assert!(p.len() <= LEGAL_POSITIONS && p[0] == 0 && p.iter().all(|&i| i < n), "{n}: {p:?}");
        }
    }

    /// Every fault has one unified answer, a code of the shared envelope.
    #[test]
    fn every_envelope_fault_has_one_expected_answer_of_the_shared_codes() {
        let shared: Vec<&str> = crate::envelope::Code::ALL.iter().map(|c| c.as_str()).collect();
        for (i, (fault, code)) in EXPECTED_ENVELOPE_CODES.iter().enumerate() {
            assert!(!EXPECTED_ENVELOPE_CODES[..i].iter().any(|(f, _)| f == fault), "{fault:?} twice");
            assert!(shared.contains(code), "{fault:?}: `{code}` is not a shared envelope code");
        }
    }

    /// The faults are what they say, built from a valid log: the bytes that must not be
    /// JSON are not, and the others are JSON with the one change.
    #[test]
    fn envelope_faults_are_built_from_the_valid_log() {
        let log = json!({"format": "toy-log/1", "setup": {"players": ["A", "B"]}, "entries": []});
        let g = Simulated { kind: GameKind::Caverna, seed: 0, players: 2, bytes: compact(&log), log };
        let parsed = |f| serde_json::from_slice::<Value>(&envelope_fault(f, &g)).ok();
        for f in [EnvelopeFault::NotJson, EnvelopeFault::TrailingText, EnvelopeFault::NotUtf8] {
            assert_eq!(parsed(f), None, "{f:?}");
        }
        assert_eq!(parsed(EnvelopeFault::FormatMissing).and_then(|v| v.get("format").cloned()), None);
        assert_eq!(parsed(EnvelopeFault::SetupMissing).and_then(|v| v.get("setup").cloned()), None);
        assert_eq!(parsed(EnvelopeFault::EntriesNotAnArray).map(|v| v["entries"].is_object()), Some(true));
        let large = envelope_fault(EnvelopeFault::TooLarge, &g);
        assert_eq!(large.len(), MAX_LOG_BYTES + 1);
        assert_eq!(serde_json::from_slice::<Value>(&large).ok(), Some(g.log.clone()), "valid but for its size");
    }
}
