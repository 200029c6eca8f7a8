//! A log's envelope (the part every game's log shares: `format`, `meta`, `setup`, `entries`,
//! `claimed`, the size bound), read the same way by every engine ([`read`]), with one set of
//! codes ([`codes`], [`Code`]) and one wording ([`messages`]) for its faults; and the verdict of
//! a log that no engine reads: its format names no game Chronicle knows, or (a case kept for a
//! game named before its engine is written; none today) a game whose engine this build does not
//! have. Such logs are still stored (once, as invalid), so the uploader sees why.

use serde_json::value::RawValue;
use serde_json::Value;

use crate::kind::GameKind;
use crate::members::{present, tree_rejects, without_place, Members};
use crate::verdict::{LogError, Meta, Status, Verdict};

/// The largest log any engine reads, in bytes.
pub const MAX_LOG_BYTES: usize = 16 * 1024 * 1024;

/// Error codes of this module (each engine uses the same codes for the same envelope faults).
pub mod codes {
    pub const LOG_TOO_LARGE: &str = "log_too_large";
    pub const MALFORMED_JSON: &str = "malformed_json";
    pub const MALFORMED: &str = "malformed";
    pub const BAD_FORMAT: &str = "bad_format";
    pub const UNKNOWN_FIELD: &str = "unknown_field";
    /// A format Chronicle knows, of a game whose engine is not available.
    pub const UNSUPPORTED_GAME: &str = "unsupported_game";
}

/// The code of an envelope fault, as every engine reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// The log, or its list of entries, is over its bound.
    LogTooLarge,
    /// The input is not JSON (not UTF-8, a syntax error, trailing text, a number out of range).
    MalformedJson,
    /// Not an object; `setup`, `entries` or `meta` missing or of the wrong shape.
    Malformed,
    /// `format` is missing or not the engine's.
    BadFormat,
    /// A top-level member, or a member of `meta`, that the format does not define.
    UnknownField,
}

impl Code {
    pub const ALL: [Code; 5] =
        [Code::LogTooLarge, Code::MalformedJson, Code::Malformed, Code::BadFormat, Code::UnknownField];

    /// The code as every engine reports it ([`codes`]).
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::LogTooLarge => codes::LOG_TOO_LARGE,
            Code::MalformedJson => codes::MALFORMED_JSON,
            Code::Malformed => codes::MALFORMED,
            Code::BadFormat => codes::BAD_FORMAT,
            Code::UnknownField => codes::UNKNOWN_FIELD,
        }
    }
}

/// The messages of the envelope's faults, the same for every game.
pub mod messages {
    use serde_json::Value;

    /// A log over the size bound.
    pub fn too_large(bytes: usize, max: usize) -> String {
        format!("{bytes} bytes; at most {max}")
    }

    /// More entries than the engine accepts.
    pub fn too_many_entries(entries: usize, max: usize) -> String {
        format!("{entries} entries; at most {max}")
    }

    /// JSON, but not an object.
    pub fn not_an_object() -> String {
        "a log is a JSON object".to_owned()
    }

    /// A top-level member no format defines.
    pub fn unknown_top_level_field(name: &str) -> String {
        format!("unknown top-level field `{name}`")
    }

    /// No `format`: `expected` is the format of the engine that reads the log.
    pub fn format_missing(expected: &str) -> String {
        format!("`format` is missing; expected \"{expected}\"")
    }

    /// A `format` (any JSON value) other than `expected`, the format of the engine that reads
    /// the log: `format "village-log/2" is not "village-log/1"`.
    pub fn format_not(found: &Value, expected: &str) -> String {
        format!("format {found} is not \"{expected}\"")
    }

    /// A required member (`setup`, `entries`) that is absent.
    pub fn missing(member: &str) -> String {
        format!("`{member}` is missing")
    }

    /// A member (`setup`, `meta`) that must be an object and is not.
    pub fn not_an_object_member(member: &str) -> String {
        format!("`{member}` is not an object")
    }

    /// `entries` that is not an array.
    pub fn not_an_array(member: &str) -> String {
        format!("`{member}` is not an array")
    }

    /// A top-level member written twice, for a format that refuses it.
    pub fn repeated(member: &str) -> String {
        format!("top-level member `{member}` is repeated")
    }

    /// A fault inside `meta`, as serde words it (without a place in the text).
    pub fn in_meta(text: &str) -> String {
        format!("meta: {text}")
    }
}

/// A fault of a log's envelope: its code and message, and the log's `meta` when it was read
/// before the fault (verdicts report it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub code: Code,
    pub message: String,
    pub meta: Meta,
}

impl Fault {
    fn new(code: Code, message: String) -> Fault {
        Fault { code, message, meta: Meta::default() }
    }
}

/// A log's envelope as read by [`read`]: its `meta`, and its other parts as their text in the
/// log (borrowed), for the engine to read with its own notation.
pub struct Parts<'a> {
    pub meta: Meta,
    /// `setup`: an object.
    pub setup: &'a RawValue,
    /// Each entry's text, in order.
    pub entries: Vec<&'a RawValue>,
    /// `claimed`, unless it is absent or `null`.
    pub claimed: Option<&'a RawValue>,
    /// The first top-level member written twice, if any (only its last copy is read above):
    /// for an engine whose format refuses repeated members ([`Parts::refuse_repeated`]).
    pub repeated: Option<String>,
}

impl Parts<'_> {
    /// The fault of a log whose top-level member is written twice, for an engine whose format
    /// refuses that (Above and Below): `malformed`, with the log's `meta`.
    pub fn refuse_repeated(&self) -> Option<Fault> {
        let name = self.repeated.as_deref()?;
        Some(Fault { code: Code::Malformed, message: messages::repeated(name), meta: self.meta.clone() })
    }
}

/// The top-level members a log may have.
pub const MEMBERS: [&str; 5] = ["format", "meta", "setup", "entries", "claimed"];

/// Whether a part's text is a JSON object.
fn is_object(raw: &RawValue) -> bool {
    raw.get().trim_start().starts_with('{')
}

/// Reads the envelope of a log of `format` with at most `max_entries` entries, as every engine
/// reads it, in this order: the size bound ([`MAX_LOG_BYTES`]); JSON; an object; no unknown
/// top-level member; `format`; `meta` (optional, an object of [`Meta`]); `setup` (an object);
/// `entries` (an array of at most `max_entries`). A member written twice counts once (the last
/// copy, as a JSON tree reads it). Whatever the fault, a log that a JSON tree reader refuses
/// (a number out of a double's range, say) is `malformed_json` with the tree reader's message.
/// The setup's and the claimed scores' contents are the engine's to read.
// Called once per replay: the size of its error does not matter.
#[allow(clippy::result_large_err)]
pub fn read<'a>(input: &'a [u8], format: &str, max_entries: usize) -> Result<Parts<'a>, Fault> {
    if input.len() > MAX_LOG_BYTES {
        return Err(Fault::new(Code::LogTooLarge, messages::too_large(input.len(), MAX_LOG_BYTES)));
    }
    parts(input, format, max_entries).map_err(|fault| match tree_rejects(input) {
        Some(e) => Fault::new(Code::MalformedJson, e.to_string()),
        None => fault,
    })
}

#[allow(clippy::result_large_err)]
fn parts<'a>(input: &'a [u8], format: &str, max_entries: usize) -> Result<Parts<'a>, Fault> {
    // Not JSON (worded by `read` as the tree reader words it), or not an object.
    let members =
        serde_json::from_slice::<Members>(input).map_err(|_| Fault::new(Code::Malformed, messages::not_an_object()))?;
    // A repeated member: only its last copy is read, so the tree reader judges the others.
    if let Some(e) = members.repeated().then(|| tree_rejects(input)).flatten() {
        return Err(Fault::new(Code::MalformedJson, e.to_string()));
    }
    if let Some(k) = members.unknown(&MEMBERS) {
        return Err(Fault::new(Code::UnknownField, messages::unknown_top_level_field(k)));
    }
    match members.get("format").map(|raw| serde_json::from_str::<Value>(raw.get())) {
        Some(Ok(Value::String(f))) if f == format => {}
        Some(Ok(other)) => return Err(Fault::new(Code::BadFormat, messages::format_not(&other, format))),
        Some(Err(e)) => return Err(Fault::new(Code::MalformedJson, e.to_string())),
        None => return Err(Fault::new(Code::BadFormat, messages::format_missing(format))),
    }
    let meta: Meta = match present(members.get("meta")) {
        None => Meta::default(),
        Some(raw) if !is_object(raw) => {
            return Err(Fault::new(Code::Malformed, messages::not_an_object_member("meta")))
        }
        Some(raw) => crate::members::read(raw).map_err(|e| {
            let text = without_place(&e);
            let code = if text.contains("unknown field") { Code::UnknownField } else { Code::Malformed };
            Fault::new(code, messages::in_meta(&text))
        })?,
    };
    let fail = |code, message| Err(Fault { code, message, meta: meta.clone() });
    let setup = match members.get("setup") {
        None => return fail(Code::Malformed, messages::missing("setup")),
        Some(raw) if !is_object(raw) => return fail(Code::Malformed, messages::not_an_object_member("setup")),
        Some(raw) => raw,
    };
    let entries: Vec<&RawValue> = match members.get("entries") {
        None => return fail(Code::Malformed, messages::missing("entries")),
        Some(raw) => match serde_json::from_str(raw.get()) {
            Ok(entries) => entries,
            Err(_) => return fail(Code::Malformed, messages::not_an_array("entries")),
        },
    };
    if entries.len() > max_entries {
        return fail(Code::LogTooLarge, messages::too_many_entries(entries.len(), max_entries));
    }
    let repeated = members.first_repeated().map(str::to_owned);
    Ok(Parts { meta, setup, entries, claimed: present(members.get("claimed")), repeated })
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
        synthetic_data: false,
    }
}

fn known_formats() -> String {
    GameKind::ALL.iter().map(|k| format!("\"{}\"", k.format())).collect::<Vec<_>>().join(", ")
}

/// The game a log records, by its `format`; otherwise the verdict of a log whose format names
/// no [`GameKind`]: too large, not JSON, not an object, or without a known `format`.
pub fn classify(log: &[u8]) -> Result<GameKind, Box<Verdict>> {
    if log.len() > MAX_LOG_BYTES {
        let message = messages::too_large(log.len(), MAX_LOG_BYTES);
        return Err(Box::new(invalid(None, codes::LOG_TOO_LARGE, message)));
    }
    let value: Value = match serde_json::from_slice(log) {
        Ok(v) => v,
        Err(e) => return Err(Box::new(invalid(None, codes::MALFORMED_JSON, e.to_string()))),
    };
    let Value::Object(obj) = value else {
        return Err(Box::new(invalid(None, codes::MALFORMED, messages::not_an_object())));
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
        for code in Code::ALL.iter().map(|c| c.as_str()).chain([codes::UNSUPPORTED_GAME]) {
            assert!(doc.contains(&format!("| `{code}` |")), "{code} missing from docs/errors.md");
        }
    }

    #[test]
    fn an_unsupported_game_keeps_its_kind() {
        let v = unsupported(GameKind::AboveAndBelow);
        assert_eq!(v.game, Some(GameKind::AboveAndBelow));
        assert!(v.error.is_some_and(|e| e.message.contains("above-and-below-log/1")));
    }

    const LOG: &str = r#"{"format": "x-log/1", "meta": {"id": "m"}, "setup": {"a": 1}, "entries": [{"n": 1}, 2]}"#;

    fn fault(log: &str) -> (&'static str, String) {
        match read(log.as_bytes(), "x-log/1", 2) {
            Ok(_) => ("(read)", String::new()),
            Err(f) => (f.code.as_str(), f.message),
        }
    }

    #[test]
    fn the_shared_reader_hands_on_the_parts_as_their_text() {
        let Ok(p) = read(LOG.as_bytes(), "x-log/1", 2) else { panic!("not read") };
        assert_eq!(p.meta.id.as_deref(), Some("m"));
        assert_eq!(p.setup.get(), r#"{"a": 1}"#);
        assert_eq!(p.entries.iter().map(|e| e.get()).collect::<Vec<_>>(), [r#"{"n": 1}"#, "2"]);
        assert!(p.claimed.is_none());
        let with_null = LOG.replace(r#""entries""#, r#""claimed": null, "entries""#);
        assert!(read(with_null.as_bytes(), "x-log/1", 2).is_ok_and(|p| p.claimed.is_none()));
    }

    /// Every envelope fault has its one code and message, naming the reading engine's format.
    #[test]
    fn every_envelope_fault_has_one_code_and_message() {
        let cases: &[(&str, &str, &str)] = &[
            ("{", codes::MALFORMED_JSON, "EOF while parsing an object at line 1 column 1"),
            ("[1]", codes::MALFORMED, "a log is a JSON object"),
            (&LOG.replace("\"meta\"", "\"x\""), codes::UNKNOWN_FIELD, "unknown top-level field `x`"),
            (&LOG.replace("x-log/1", "x-log/2"), codes::BAD_FORMAT, r#"format "x-log/2" is not "x-log/1""#),
            (&LOG.replace(r#""x-log/1""#, "7"), codes::BAD_FORMAT, r#"format 7 is not "x-log/1""#),
            (
                &LOG.replace(r#""format": "x-log/1", "#, ""),
                codes::BAD_FORMAT,
                "`format` is missing; expected \"x-log/1\"",
            ),
            (&LOG.replace(r#"{"id": "m"}"#, "7"), codes::MALFORMED, "`meta` is not an object"),
            (&LOG.replace(r#""id""#, r#""idx""#), codes::UNKNOWN_FIELD, "meta: unknown field `idx`"),
            (&LOG.replace(r#"{"a": 1}"#, "[]"), codes::MALFORMED, "`setup` is not an object"),
            (&LOG.replace(r#""setup""#, r#""claimed""#), codes::MALFORMED, "`setup` is missing"),
            (&LOG.replace(r#"[{"n": 1}, 2]"#, "{}"), codes::MALFORMED, "`entries` is not an array"),
            (&LOG.replace(r#""entries""#, r#""claimed""#), codes::MALFORMED, "`entries` is missing"),
            (&LOG.replace("2]", "2, 3]"), codes::LOG_TOO_LARGE, "3 entries; at most 2"),
            (&LOG.replace("2]", "2, 1e999]"), codes::MALFORMED_JSON, "number out of range"),
        ];
        for (log, code, message) in cases {
            let (c, m) = fault(log);
            assert_eq!(c, *code, "{log}: {m}");
            assert!(m.starts_with(message), "{log}: {m}");
        }
        let big = format!("{LOG}{}", " ".repeat(MAX_LOG_BYTES));
        assert_eq!(fault(&big), (codes::LOG_TOO_LARGE, format!("{} bytes; at most {MAX_LOG_BYTES}", big.len())));
    }

    /// A fault found after `meta` was read keeps it (verdicts report it); a log the tree reader
    /// refuses is `malformed_json` whatever else is wrong, without its meta.
    #[test]
    fn a_fault_after_meta_keeps_it_and_the_tree_reader_has_the_last_word() {
        let no_setup = LOG.replace(r#""setup""#, r#""claimed""#);
        assert_eq!(read(no_setup.as_bytes(), "x-log/1", 2).err().and_then(|f| f.meta.id), Some("m".to_owned()));
        let repeated = LOG.replace(r#""meta": {"id": "m"}"#, r#""meta": {"id": 1e999}, "meta": {}"#);
        assert_eq!(fault(&repeated).0, codes::MALFORMED_JSON);
        let both = LOG.replace(r#""meta""#, r#""x""#).replace("2]", "1e999]");
        assert_eq!(fault(&both).0, codes::MALFORMED_JSON);
        let twice = LOG.replace(r#""setup": {"a": 1}"#, r#""setup": 7, "setup": {"a": 1}"#);
        let Ok(p) = read(twice.as_bytes(), "x-log/1", 2) else {
            panic!("a member written twice counts once, the last")
        };
        let refused = p.refuse_repeated().map(|f| (f.code.as_str(), f.message, f.meta.id));
        assert_eq!(
            refused,
            Some((codes::MALFORMED, "top-level member `setup` is repeated".to_owned(), Some("m".into())))
        );
        assert!(read(LOG.as_bytes(), "x-log/1", 2).is_ok_and(|p| p.refuse_repeated().is_none()));
    }
}
