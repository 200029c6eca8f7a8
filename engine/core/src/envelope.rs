//! The verdict of a log that no engine reads: its format names no game Chronicle knows, or (a
//! case kept for a game named before its engine is written; none today) a game whose engine
//! this build does not have. Such logs are still stored (once, as invalid), so the uploader
//! sees why.

use serde_json::Value;

use crate::kind::GameKind;
use crate::verdict::{LogError, Meta, Status, Verdict};

/// The largest log any engine reads, in bytes.
pub const MAX_LOG_BYTES: usize = 16 * 1024 * 1024;

/// Error codes of this module (each engine uses the same codes for the same envelope faults).
pub mod codes {
    pub const LOG_TOO_LARGE: &str = "log_too_large";
    pub const MALFORMED_JSON: &str = "malformed_json";
    pub const MALFORMED: &str = "malformed";
    pub const BAD_FORMAT: &str = "bad_format";
    /// A format Chronicle knows, of a game whose engine is not available.
    pub const UNSUPPORTED_GAME: &str = "unsupported_game";
}

fn invalid(game: Option<GameKind>, code: &str, message: String) -> Verdict {
    Verdict {
        game,
        engine_version: String::new(),
        status: Status::Invalid,
        error: Some(LogError::new(None, None, code, &message)),
        meta: Meta::default(),
        variant: None,
        player_count: None,
        round_reached: 0,
        entries_applied: 0,
        players: Vec::new(),
    }
}

fn known_formats() -> String {
    GameKind::ALL.iter().map(|k| format!("\"{}\"", k.format())).collect::<Vec<_>>().join(", ")
}

/// The game a log records, by its `format`; otherwise the verdict of a log whose format names
/// no [`GameKind`]: too large, not JSON, not an object, or without a known `format`.
pub fn classify(log: &[u8]) -> Result<GameKind, Box<Verdict>> {
    if log.len() > MAX_LOG_BYTES {
        let message = format!("{} bytes; at most {MAX_LOG_BYTES}", log.len());
        return Err(Box::new(invalid(None, codes::LOG_TOO_LARGE, message)));
    }
    let value: Value = match serde_json::from_slice(log) {
        Ok(v) => v,
        Err(e) => return Err(Box::new(invalid(None, codes::MALFORMED_JSON, e.to_string()))),
    };
    let Value::Object(obj) = value else {
        return Err(Box::new(invalid(None, codes::MALFORMED, "a log is a JSON object".to_owned())));
    };
    let message = match obj.get("format") {
        None => format!("`format` is missing; expected one of {}", known_formats()),
        Some(Value::String(f)) => match GameKind::from_format(f) {
            Some(k) => return Ok(k),
            None => format!("format \"{f}\" is not one of {}", known_formats()),
        },
        Some(other) => format!("format {other} is not one of {}", known_formats()),
    };
    Err(Box::new(invalid(None, codes::BAD_FORMAT, message)))
}

/// The verdict of a log of a game whose engine this build does not have (`unsupported_game`).
/// Every game Chronicle knows has its engine today; this stays for the next game, whose
/// `GameKind` may exist before its engine does.
pub fn unsupported(kind: GameKind) -> Verdict {
    let spec = kind.spec();
    invalid(
        Some(kind),
        codes::UNSUPPORTED_GAME,
        format!("{} logs ({}) cannot be verified yet: this build has no {} engine", spec.name, spec.format, spec.name),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(v: &Verdict) -> &str {
        v.error.as_ref().map_or("", |e| e.code.as_str())
    }

    #[test]
    fn every_envelope_fault_has_its_code() {
        let cases: &[(&[u8], &str)] = &[
            (b"{", codes::MALFORMED_JSON),
            (b"[1, 2]", codes::MALFORMED),
            (br#"{"setup": {}}"#, codes::BAD_FORMAT),
            (br#"{"format": "chess-log/1"}"#, codes::BAD_FORMAT),
            (br#"{"format": 7}"#, codes::BAD_FORMAT),
        ];
        for (log, expected) in cases {
            let Err(v) = classify(log) else { panic!("{}: not refused", String::from_utf8_lossy(log)) };
            assert_eq!(v.status, Status::Invalid);
            assert_eq!(code(&v), *expected, "{}", String::from_utf8_lossy(log));
            assert!(v.players.is_empty());
        }
        let big = vec![b' '; MAX_LOG_BYTES + 1];
        assert_eq!(classify(&big).err().as_deref().map(code), Some(codes::LOG_TOO_LARGE));
        assert_eq!(classify(br#"{"format": "village-log/1", "format": "caverna-log/1"}"#), Ok(GameKind::Caverna));
    }

    /// Every code here is documented in `docs/errors.md`.
    #[test]
    fn every_envelope_code_is_documented() {
        let doc = include_str!("../../../docs/errors.md");
        for code in
            [codes::LOG_TOO_LARGE, codes::MALFORMED_JSON, codes::MALFORMED, codes::BAD_FORMAT, codes::UNSUPPORTED_GAME]
        {
            assert!(doc.contains(&format!("| `{code}` |")), "{code} missing from docs/errors.md");
        }
    }

    #[test]
    fn an_unsupported_game_keeps_its_kind() {
        let v = unsupported(GameKind::AboveAndBelow);
        assert_eq!(v.game, Some(GameKind::AboveAndBelow));
        assert!(v.error.is_some_and(|e| e.message.contains("above-and-below-log/1")));
    }
}
