//! The registry of games: which engine verifies a log, chosen by its format. This is the one
//! place that matches every [`GameKind`] to its engine; adding a game adds a line here.

use chronicle_caverna::Caverna;
use chronicle_game::envelope;
use chronicle_game::{GameEngine, GameKind, LedgerLine, Legal, StateAt};
use chronicle_store::record::{Facts, GameRecord};

use crate::facts::{caverna_facts, record};

/// The record of a log: replayed by its game's engine when this build has one, else the
/// verdict of [`envelope`] (stored as invalid with `bad_format` or `unsupported_game`).
/// `format` is the log's top-level `format` as ingestion read it (`canonical::Identity`).
pub fn record_of(bytes: &[u8], format: Option<&str>) -> GameRecord {
    let kind = match format.and_then(GameKind::from_format).ok_or(()).or_else(|()| envelope::classify(bytes)) {
        Ok(kind) => kind,
        Err(verdict) => return record(&verdict, Facts::None),
    };
    match kind {
        GameKind::Caverna => {
            let replay = Caverna::replay(bytes);
            record(&Caverna::verdict(&replay), Facts::Caverna(caverna_facts(&replay)))
        }
        GameKind::Village | GameKind::AboveAndBelow => record(&envelope::unsupported(kind), Facts::None),
        #[cfg(feature = "toy")]
        GameKind::Toy => {
            use chronicle_toy::Toy;
            record(&Toy::verdict(&Toy::replay(bytes)), Facts::None)
        }
    }
}

/// What each legal entry of a log of game `kind` changed (empty for a game without an engine).
pub fn ledger(kind: Option<GameKind>, bytes: &[u8]) -> Vec<LedgerLine> {
    match kind {
        Some(GameKind::Caverna) => Caverna::ledger(bytes),
        Some(GameKind::Village | GameKind::AboveAndBelow) | None => Vec::new(),
        #[cfg(feature = "toy")]
        Some(GameKind::Toy) => chronicle_toy::Toy::ledger(bytes),
    }
}

/// The legal entries where a log stops being legal (see [`GameEngine::legal_next`]); `None`
/// for a log whose game this build cannot verify.
pub fn legal_next(bytes: &[u8], format: Option<&str>, limit: usize) -> Option<(GameKind, Legal)> {
    let kind = format.and_then(GameKind::from_format).or_else(|| envelope::classify(bytes).ok())?;
    match kind {
        GameKind::Caverna => Some((kind, Caverna::legal_next(bytes, limit))),
        GameKind::Village | GameKind::AboveAndBelow => None,
        #[cfg(feature = "toy")]
        GameKind::Toy => Some((kind, chronicle_toy::Toy::legal_next(bytes, limit))),
    }
}

/// The next step of building one entry after a log (see [`GameEngine::entry_steps`]); `None`
/// for a log whose game this build cannot verify.
pub fn entry_steps(
    bytes: &[u8],
    format: Option<&str>,
    draft: &serde_json::Value,
) -> Option<(GameKind, Result<chronicle_game::Steps, String>)> {
    let kind = format.and_then(GameKind::from_format).or_else(|| envelope::classify(bytes).ok())?;
    match kind {
        GameKind::Caverna => Some((kind, Caverna::entry_steps(&Caverna::replay_until(bytes, usize::MAX), draft))),
        GameKind::Village | GameKind::AboveAndBelow => None,
        #[cfg(feature = "toy")]
        GameKind::Toy => {
            use chronicle_toy::Toy;
            Some((kind, Toy::entry_steps(&Toy::replay_until(bytes, usize::MAX), draft)))
        }
    }
}

/// Whether this build verifies logs of `kind` (others are stored as `unsupported_game`).
pub fn has_engine(kind: GameKind) -> bool {
    match kind {
        GameKind::Caverna => true,
        GameKind::Village | GameKind::AboveAndBelow => false,
        #[cfg(feature = "toy")]
        GameKind::Toy => true,
    }
}

/// The state of a log of game `kind` after entry `at` (after its last legal entry when `None`).
pub fn state_at(kind: Option<GameKind>, bytes: &[u8], at: Option<usize>) -> Result<StateAt, String> {
    match kind {
        Some(GameKind::Caverna) => Caverna::state_at(bytes, at),
        Some(kind @ (GameKind::Village | GameKind::AboveAndBelow)) => {
            Err(format!("this build has no {} engine: the game has no state", kind.spec().name))
        }
        #[cfg(feature = "toy")]
        Some(GameKind::Toy) => chronicle_toy::Toy::state_at(bytes, at),
        None => Err("the log records no game Chronicle knows: it has no state".to_owned()),
    }
}

/// The state after a log's last legal entry, its window still open (see
/// [`GameEngine::open_state`]); `None` without a valid setup or an engine for the game.
pub fn open_state(bytes: &[u8], format: Option<&str>) -> Option<StateAt> {
    let kind = format.and_then(GameKind::from_format).or_else(|| envelope::classify(bytes).ok())?;
    match kind {
        GameKind::Caverna => Caverna::open_state(bytes),
        GameKind::Village | GameKind::AboveAndBelow => None,
        #[cfg(feature = "toy")]
        GameKind::Toy => chronicle_toy::Toy::open_state(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chronicle_game::Status;

    #[test]
    fn each_format_goes_to_its_game() {
        let caverna =
            br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}], "seed": 1}, "entries": []}"#;
        let r = record_of(caverna, Some("caverna-log/1"));
        assert_eq!((r.game, r.status), (Some(GameKind::Caverna), Status::Incomplete));
        assert!(matches!(r.facts, Facts::Caverna(_)));

        let village = br#"{"format": "village-log/1", "setup": {}, "entries": []}"#;
        let r = record_of(village, Some("village-log/1"));
        assert_eq!((r.game, r.status), (Some(GameKind::Village), Status::Invalid));
        assert_eq!(r.error.map(|e| e.code), Some(envelope::codes::UNSUPPORTED_GAME.to_owned()));

        let chess = br#"{"format": "chess-log/1"}"#;
        let r = record_of(chess, Some("chess-log/1"));
        assert_eq!((r.game, r.status), (None, Status::Invalid));
        assert_eq!(r.facts, Facts::None);
    }
}
