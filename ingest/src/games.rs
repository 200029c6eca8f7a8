//! The registry of games: which engine verifies a log, chosen by its format. [`engine`] is the
//! one place that maps every [`GameKind`] to its engine; adding a game adds a line there (and,
//! for a game whose statistics read facts of their own, its facts function). Every function
//! below works through that handle, for every game alike.

use chronicle_above_and_below::AboveAndBelow;
use chronicle_caverna::Caverna;
use chronicle_game::envelope;
use chronicle_game::{
    BoardView, Engine, GameEngine, GameKind, Handle, LedgerLine, Legal, StateAt, Steps, Timeline, Verdict,
};
use chronicle_store::record::{Facts, GameRecord};
use chronicle_village::Village;

use crate::facts::{caverna_facts, record};

/// A game as this build knows it: its engine, and how its stored record is made.
pub struct Registered {
    /// The engine, for every job on a log.
    pub engine: &'static dyn Engine,
    /// The record of a log: the engine's verdict and the game's own facts, in one replay.
    record: fn(&[u8]) -> GameRecord,
}

/// The record of a game whose statistics read only its verdict (no facts of its own).
fn verdict_record<E: GameEngine>(bytes: &[u8]) -> GameRecord {
    record(&E::verdict(&E::replay(bytes)), Facts::None)
}

/// The record of a Caverna log: its verdict and its facts (`facts::caverna_facts`).
fn caverna_record(bytes: &[u8]) -> GameRecord {
    let replay = Caverna::replay(bytes);
    record(&Caverna::verdict(&replay), Facts::Caverna(caverna_facts(&replay)))
}

const fn game<E: GameEngine + 'static>(record: fn(&[u8]) -> GameRecord) -> Registered {
    Registered { engine: &Handle::<E>::NEW, record }
}

static CAVERNA: Registered = game::<Caverna>(caverna_record);
static VILLAGE: Registered = game::<Village>(verdict_record::<Village>);
static ABOVE_AND_BELOW: Registered = game::<AboveAndBelow>(verdict_record::<AboveAndBelow>);
#[cfg(feature = "toy")]
static TOY: Registered = game::<chronicle_toy::Toy>(verdict_record::<chronicle_toy::Toy>);

/// The game `kind` as this build knows it: the registry, one line per game.
pub fn registered(kind: GameKind) -> &'static Registered {
    match kind {
        GameKind::Caverna => &CAVERNA,
        GameKind::Village => &VILLAGE,
        GameKind::AboveAndBelow => &ABOVE_AND_BELOW,
        #[cfg(feature = "toy")]
        GameKind::Toy => &TOY,
    }
}

/// The engine of game `kind`.
pub fn engine(kind: GameKind) -> &'static dyn Engine {
    registered(kind).engine
}

/// The game of a log: by its `format` as ingestion read it (`canonical::Identity`), else by
/// reading the envelope, whose verdict says why no game could be named.
fn kind_of(bytes: &[u8], format: Option<&str>) -> Result<GameKind, Box<Verdict>> {
    format.and_then(GameKind::from_format).ok_or(()).or_else(|()| envelope::classify(bytes))
}

/// The record of a log: replayed by its game's engine, else the verdict of [`envelope`]
/// (stored as invalid with `bad_format`). Only Caverna has facts for the statistics; the
/// other games' records carry [`Facts::None`] (their statistics read their verdicts' counters).
pub fn record_of(bytes: &[u8], format: Option<&str>) -> GameRecord {
    match kind_of(bytes, format) {
        Ok(kind) => (registered(kind).record)(bytes),
        Err(verdict) => record(&verdict, Facts::None),
    }
}

/// The game-agnostic verdict of a log: its game's engine's, else the envelope's (`bad_format`
/// and the other envelope faults). For reports that need no stored record (`chronicle replay`).
pub fn verdict_of(bytes: &[u8], format: Option<&str>) -> Verdict {
    match kind_of(bytes, format) {
        Ok(kind) => engine(kind).verdict(bytes),
        Err(verdict) => *verdict,
    }
}

/// What a replay of the log had to take as declared rather than check, for the games whose
/// logs declare their own component data (`capabilities.trust_report`); `None` for the other
/// games, whose engines hold every rule and number they check, and for a log of no known game.
pub fn trust_report(bytes: &[u8], format: Option<&str>) -> Option<serde_json::Value> {
    engine(kind_of(bytes, format).ok()?).trust_report(bytes)
}

/// A whole game of `kind` played by its engine's bots from `seed` for `players` seats, as a
/// log (see [`GameEngine::simulate`]; refused with a message for a player count the game does
/// not have).
pub fn simulate(kind: GameKind, seed: u64, players: u8) -> Result<serde_json::Value, String> {
    engine(kind).simulate(seed, players)
}

/// What each legal entry of a log of game `kind` changed (empty for a log of no known game).
pub fn ledger(kind: Option<GameKind>, bytes: &[u8]) -> Vec<LedgerLine> {
    kind.map(|k| engine(k).ledger(bytes)).unwrap_or_default()
}

/// The view of a log after its last legal entry (see [`GameEngine::open_view`]); `None`
/// without a valid setup or a known game.
pub fn open_view(bytes: &[u8], format: Option<&str>) -> Option<BoardView> {
    engine(kind_of(bytes, format).ok()?).open_view(bytes)
}

/// A log's legal entries in words and the view after the last (see [`GameEngine::trail`]);
/// `None` for a log of no known game or without a valid setup.
pub fn trail(bytes: &[u8], format: Option<&str>) -> Option<(Vec<String>, BoardView)> {
    engine(kind_of(bytes, format).ok()?).trail(bytes)
}

/// Every position of a log of game `kind` with its view and ledger line (`None` for a log of
/// no known game or without a valid setup).
pub fn timeline(kind: Option<GameKind>, bytes: &[u8]) -> Option<Timeline> {
    kind.and_then(|k| engine(k).timeline(bytes))
}

/// The legal entries where a log stops being legal (see [`GameEngine::legal_next`]); `None`
/// for a log whose format names no game Chronicle knows.
pub fn legal_next(bytes: &[u8], format: Option<&str>, limit: usize) -> Option<(GameKind, Legal)> {
    let kind = kind_of(bytes, format).ok()?;
    Some((kind, engine(kind).legal_next(bytes, limit)))
}

/// [`legal_next`] with each entry in words and what it will cost its player
/// ([`GameEngine::describe_next`]), in the same order.
pub fn legal_next_described(
    bytes: &[u8],
    format: Option<&str>,
    limit: usize,
) -> Option<(GameKind, Legal, Vec<String>)> {
    let (kind, legal) = legal_next(bytes, format, limit)?;
    let labels = engine(kind).describe_next(bytes, &legal.entries);
    Some((kind, legal, labels))
}

/// The next step of building one entry after a log (see [`GameEngine::entry_steps`]); `None`
/// for a log whose format names no game Chronicle knows.
pub fn entry_steps(
    bytes: &[u8],
    format: Option<&str>,
    draft: &serde_json::Value,
) -> Option<(GameKind, Result<Steps, String>)> {
    let kind = kind_of(bytes, format).ok()?;
    Some((kind, engine(kind).entry_steps(bytes, draft)))
}

/// Entries that could follow a log, each in words as the log's game says it after the log's
/// last legal entry (see [`GameEngine::describe_next`]); `None` for a log of no known game.
pub fn describe_next(bytes: &[u8], format: Option<&str>, entries: &[serde_json::Value]) -> Option<Vec<String>> {
    let kind = kind_of(bytes, format).ok()?;
    Some(engine(kind).describe_next(bytes, entries))
}

/// The state of a log of game `kind` after entry `at` (after its last legal entry when `None`).
pub fn state_at(kind: Option<GameKind>, bytes: &[u8], at: Option<usize>) -> Result<StateAt, String> {
    match kind {
        Some(kind) => engine(kind).state_at(bytes, at),
        None => Err("the log records no game Chronicle knows: it has no state".to_owned()),
    }
}

/// The state after a log's last legal entry, its window still open (see
/// [`GameEngine::open_state`]); `None` without a valid setup or a known game.
pub fn open_state(bytes: &[u8], format: Option<&str>) -> Option<StateAt> {
    engine(kind_of(bytes, format).ok()?).open_state(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chronicle_game::Status;

    fn engine_fixture(path: &str) -> Vec<u8> {
        let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine").join(path);
        std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
    }

    #[test]
    fn each_format_goes_to_its_game() {
        let caverna =
            br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}], "seed": 1}, "entries": []}"#;
        let r = record_of(caverna, Some("caverna-log/1"));
        assert_eq!((r.game, r.status), (Some(GameKind::Caverna), Status::Incomplete));
        assert!(matches!(r.facts, Facts::Caverna(_)));

        let village = engine_fixture("village/tests/fixtures/synthetic-2p-complete.json");
        let r = record_of(&village, Some("village-log/1"));
        assert_eq!((r.game, r.status, r.facts), (Some(GameKind::Village), Status::Complete, Facts::None));
        assert!(r.players.iter().all(|p| p.score.is_some()), "a complete game is scored");

        let aab = engine_fixture("above-and-below/tests/fixtures/golden-2p.json");
        let r = record_of(&aab, None);
        assert_eq!((r.game, r.status), (Some(GameKind::AboveAndBelow), Status::Complete));
        assert_eq!(r.players.len(), 2);

        let chess = br#"{"format": "chess-log/1"}"#;
        let r = record_of(chess, Some("chess-log/1"));
        assert_eq!((r.game, r.status), (None, Status::Invalid));
        assert_eq!(r.error.map(|e| e.code), Some(envelope::codes::BAD_FORMAT.to_owned()));
        assert_eq!(r.facts, Facts::None);
    }

    /// A log of a known game whose setup is broken is that game's invalid log (its engine's
    /// code), never `unsupported_game`: every known game has its engine.
    #[test]
    fn a_broken_log_of_a_known_game_stays_that_game() {
        let village = br#"{"format": "village-log/1", "setup": {}, "entries": []}"#;
        let r = record_of(village, Some("village-log/1"));
        assert_eq!((r.game, r.status), (Some(GameKind::Village), Status::Invalid));
        let code = r.error.map(|e| e.code).unwrap_or_default();
        assert!(!code.is_empty() && code != envelope::codes::UNSUPPORTED_GAME, "{code}");
        assert!(GameKind::ALL.iter().all(|&k| engine(k).kind() == k), "each game has its own engine");
    }

    #[test]
    fn every_surface_reads_the_other_games() {
        for (kind, path) in [
            (GameKind::Village, "village/tests/fixtures/synthetic-2p-complete.json"),
            (GameKind::AboveAndBelow, "above-and-below/tests/fixtures/golden-3p.json"),
        ] {
            let log = engine_fixture(path);
            assert!(!ledger(Some(kind), &log).is_empty(), "{path}: ledger");
            let state = state_at(Some(kind), &log, Some(0)).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(state.state["players"].is_array(), "{path}: state");
            assert!(open_state(&log, None).is_some(), "{path}: open state");
            let (k, _) = legal_next(&log, None, 10).unwrap_or_else(|| panic!("{path}: legal entries"));
            assert_eq!(k, kind);
            let mut prefix: serde_json::Value = serde_json::from_slice(&log).unwrap_or_default();
            if let Some(entries) = prefix["entries"].as_array_mut() {
                entries.truncate(1);
            }
            let prefix = prefix.to_string().into_bytes();
            let (_, legal) = legal_next(&prefix, None, 10).unwrap_or_else(|| panic!("{path}: legal entries"));
            assert!(!legal.entries.is_empty(), "{path}: a game in play has legal entries");
            assert!(entry_steps(&prefix, None, &serde_json::json!({})).is_some_and(|(k, _)| k == kind));
        }
    }

    #[test]
    fn only_above_and_below_has_a_trust_report() {
        let aab = engine_fixture("above-and-below/tests/fixtures/golden-2p.json");
        let report = trust_report(&aab, None).unwrap_or_default();
        assert_eq!(report["players"].as_array().map(Vec::len), Some(2));
        let village = engine_fixture("village/tests/fixtures/synthetic-2p-complete.json");
        assert_eq!(trust_report(&village, None), None);
        assert_eq!(trust_report(b"{", None), None);
    }
}
