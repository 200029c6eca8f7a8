//! One case: replay the bytes and build the report the CLI would print, under
//! `catch_unwind`, timed. The report is part of the path under test: a verdict the engine
//! returns but cannot describe (a state view that panics, a score that does not serialize)
//! fails a user just as a panic in the replay does.
//!
//! Every game is fuzzed: a case goes to the engine its `format` names (Caverna, Village,
//! Above and Below), and a case whose format names no game (mutated away, or bytes that are
//! not JSON) goes to every engine, since each must refuse it without panicking.

use std::any::Any;
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use std::time::{Duration, Instant};

use chronicle_above_and_below::AboveAndBelow;
use chronicle_caverna::{replay, Replay, ENGINE_VERSION};
use chronicle_game::{envelope, GameEngine, GameKind, Status, Verdict};
use chronicle_village::Village;
use serde_json::{json, Map, Value};

/// What a replay made of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Complete,
    Incomplete,
    /// Parsed as JSON, rejected by the engine.
    Invalid,
    /// Not JSON at all (`malformed_json`).
    Unparseable,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [Outcome::Complete, Outcome::Incomplete, Outcome::Invalid, Outcome::Unparseable];

    pub fn id(self) -> &'static str {
        match self {
            Outcome::Complete => "complete",
            Outcome::Incomplete => "incomplete",
            Outcome::Invalid => "invalid",
            Outcome::Unparseable => "unparseable",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// The outcome of a verdict on `bytes`. Every engine words a log that is not JSON
    /// `malformed_json` (the shared envelope's code), as it words a JSON log that a tree reader
    /// refuses (a number out of range): whether the bytes parse is asked of the parser for an
    /// invalid envelope.
    fn of(v: &Verdict, bytes: &[u8]) -> Outcome {
        let envelope_fault = v.error.as_ref().is_some_and(|e| e.entry.is_none());
        match v.status {
            Status::Complete => Outcome::Complete,
            Status::Incomplete => Outcome::Incomplete,
            Status::Invalid if envelope_fault && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err() => {
                Outcome::Unparseable
            }
            Status::Invalid => Outcome::Invalid,
        }
    }
}

/// A panic caught in a case: its message, where it was raised, and the stack at that point
/// (captured unresolved, so that a frequent panic does not pay for symbolization).
#[derive(Debug)]
pub struct PanicReport {
    pub message: String,
    pub location: String,
    pub backtrace: Backtrace,
}

/// The result of one case.
#[derive(Debug)]
pub struct Checked {
    /// `None` when the case panicked.
    pub outcome: Option<Outcome>,
    /// The error code of the verdict, when invalid.
    pub code: Option<String>,
    /// The game whose engine judged the case: the one its `format` names, else `None` (every
    /// engine judged it; the outcome and code are Caverna's).
    pub game: Option<GameKind>,
    /// Replay plus report.
    pub elapsed: Duration,
    pub panic: Option<PanicReport>,
}

/// The games fuzzed, each through its engine (every game of [`GameKind::ALL`] but the
/// test-only toy game, which a test of this crate checks).
pub const GAMES: [GameKind; 3] = [GameKind::Caverna, GameKind::Village, GameKind::AboveAndBelow];

/// Replays `bytes` with the engine of the game its `format` names (every engine of [`GAMES`]
/// when it names none), builds and serializes the report, and times both.
pub fn check(bytes: &[u8]) -> Checked {
    let start = Instant::now();
    let game = envelope::classify(bytes).ok().filter(|k| GAMES.contains(k));
    let result = catch_panic(|| {
        let verdicts: Vec<Verdict> = match game {
            Some(kind) => judge(kind, bytes).into_iter().collect(),
            None => GAMES.iter().filter_map(|&kind| judge(kind, bytes)).collect(),
        };
        let verdict =
            verdicts.into_iter().next().unwrap_or_else(|| chronicle_caverna::verdict::verdict(&replay(bytes)));
        (Outcome::of(&verdict, bytes), verdict.error.map(|e| e.code))
    });
    let elapsed = start.elapsed();
    match result {
        Ok((outcome, code)) => Checked { outcome: Some(outcome), code, game, elapsed, panic: None },
        Err(panic) => Checked { outcome: None, code: None, game, elapsed, panic: Some(panic) },
    }
}

/// The replay and report of game `kind`: Caverna's as `chronicle replay --json` and `chronicle
/// state` print them ([`report_json`]); the other games' through their [`GameEngine`]
/// ([`engine_report`]). Returns the verdict; `None` for a game not in [`GAMES`].
fn judge(kind: GameKind, bytes: &[u8]) -> Option<Verdict> {
    match kind {
        GameKind::Caverna => {
            let r = replay(bytes);
            std::hint::black_box(report_json(&r).to_string());
            Some(chronicle_caverna::verdict::verdict(&r))
        }
        GameKind::Village => Some(engine_report::<Village>(bytes)),
        GameKind::AboveAndBelow => Some(engine_report::<AboveAndBelow>(bytes)),
        // The test-only toy game, present when another crate of the build enables it.
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The replay of `bytes` by engine `E`, its verdict and state view serialized as the service
/// shows them; returns the verdict.
fn engine_report<E: GameEngine>(bytes: &[u8]) -> Verdict {
    let r = E::replay(bytes);
    let verdict = E::verdict(&r);
    let state = E::state_view(&r).map(|s| json!({ "round": s.round, "phase": s.phase, "state": s.state }));
    std::hint::black_box(json!({ "verdict": verdict, "state": state }).to_string());
    verdict
}

/// The report of `chronicle replay --json` (file, status, round, engine, error when invalid;
/// players, winners and claimed mismatches when complete) plus the state view of
/// `chronicle state` when the replay has a game.
pub fn report_json(r: &Replay) -> Value {
    let mut o = Map::new();
    o.insert("file".into(), json!("fuzz"));
    o.insert("status".into(), json!(r.status));
    o.insert("round".into(), json!(r.round()));
    o.insert("engine".into(), json!(ENGINE_VERSION));
    if let Some(e) = &r.error {
        o.insert("error".into(), json!(e));
    }
    if let Some(scores) = &r.scores {
        o.insert("players".into(), json!(scores));
        o.insert("winners".into(), json!(r.winners));
        o.insert("claimed_mismatches".into(), json!(r.claimed_mismatches));
    }
    if let Some(game) = &r.game {
        o.insert("state".into(), chronicle_caverna::view::state_json(game));
    }
    Value::Object(o)
}

thread_local! {
    /// Set while this thread runs a case: its panics are captured, not printed.
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static CAUGHT: RefCell<Option<PanicReport>> = const { RefCell::new(None) };
}

/// Runs `f`, turning a panic into a [`PanicReport`] (the panic hook records where it was
/// raised and the stack, which `catch_unwind` alone loses).
fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, PanicReport> {
    install_panic_hook();
    CAPTURING.with(|c| c.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    CAPTURING.with(|c| c.set(false));
    result.map_err(|payload| {
        CAUGHT.with(|c| c.borrow_mut().take()).unwrap_or_else(|| PanicReport {
            message: payload_text(payload.as_ref()),
            location: String::new(),
            backtrace: Backtrace::disabled(),
        })
    })
}

/// Installs, once per process, a hook that captures panics raised inside [`catch_panic`] and
/// hands every other panic to the hook that was there before (test failures still print).
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(Cell::get) {
                return previous(info);
            }
            let report = PanicReport {
                message: payload_text(info.payload()),
                location: info.location().map(|l| l.to_string()).unwrap_or_default(),
                backtrace: Backtrace::force_capture(),
            };
            CAUGHT.with(|c| *c.borrow_mut() = Some(report));
        }));
    });
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_with_its_message_and_location() {
        let caught = catch_panic(|| -> u8 { panic!("boom {}", 7) }).expect_err("panicked");
        assert_eq!(caught.message, "boom 7");
        assert!(caught.location.contains("harness.rs"), "{}", caught.location);
        assert_eq!(catch_panic(|| 5).ok(), Some(5));
    }

    /// A game added to Chronicle is fuzzed too: every game but the test-only toy is in
    /// [`GAMES`], and a log of each goes to its own engine.
    #[test]
    fn every_game_is_fuzzed_by_its_own_engine() {
        for &kind in GameKind::ALL.iter().filter(|k| k.id() != "toy") {
            assert!(GAMES.contains(&kind), "{kind} is not fuzzed");
            let log = format!(r#"{{"format": "{}", "entries": []}}"#, kind.format());
            let checked = check(log.as_bytes());
            assert_eq!(checked.game, Some(kind));
            assert_eq!(checked.outcome, Some(Outcome::Invalid), "{kind}: a log without a setup");
        }
        assert_eq!(check(b"[]").game, None, "a log of no game goes to every engine");
    }

    #[test]
    fn outcomes_are_classified() {
        assert_eq!(check(b"{").outcome, Some(Outcome::Unparseable));
        assert_eq!(check(b"[]").outcome, Some(Outcome::Invalid));
        let log = br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}], "seed": 1}, "entries": []}"#;
        assert_eq!(check(log).outcome, Some(Outcome::Incomplete));
    }

    #[test]
    fn the_report_has_the_state_when_there_is_a_game() {
        let log = br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}], "seed": 1}, "entries": []}"#;
        let report = report_json(&replay(log));
        assert_eq!(report["status"], "incomplete");
        assert_eq!(report["state"]["round"], 1);
        assert!(report_json(&replay(b"{")).get("state").is_none());
    }
}
