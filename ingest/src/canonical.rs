//! The dedupe key of a stored game: the SHA-256 of the log's canonical JSON form.
//!
//! Canonical form: the log parsed as JSON and written back with the keys of every object sorted
//! (by their UTF-8 bytes, recursively), no whitespace, strings and numbers as `serde_json` writes
//! them. Re-indenting a log or reordering its keys does not make it a new game; changing any
//! value does. The workspace enables `serde_json/preserve_order`, so maps keep the input order
//! and the sorting here is explicit.
//!
//! Input that is not JSON (or is larger than the engine accepts) has no canonical form: its key
//! is the SHA-256 of the raw bytes, so an unreadable upload is still stored once.

use serde_json::Value;
use sha2::{Digest, Sha256};

use chronicle_game::envelope::MAX_LOG_BYTES;

/// What ingestion needs from the raw bytes before the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Lower-case hex SHA-256 of the canonical form (of the raw bytes when not JSON).
    pub sha256: String,
    /// The top-level `format` string, when the log is a JSON object that has one.
    pub format: Option<String>,
}

/// The dedupe key and format of a log.
pub fn identify(bytes: &[u8]) -> Identity {
    let parsed = if bytes.len() <= MAX_LOG_BYTES { serde_json::from_slice::<Canon>(bytes).ok() } else { None };
    match parsed {
        Some(mut value) => {
            value.normalize();
            let format = match &value {
                Canon::Object(entries) => entries.iter().find(|(k, _)| k == "format").and_then(|(_, v)| match v {
                    Canon::String(s) => Some(s.clone()),
                    _ => None,
                }),
                _ => None,
            };
            let mut text = Vec::with_capacity(bytes.len());
            value.write(&mut text);
            Identity { sha256: hex(&Sha256::digest(&text)), format }
        }
        None => Identity { sha256: hex(&Sha256::digest(bytes)), format: None },
    }
}

/// The top-level `format` string of a log, without building the document (for replays that
/// need no dedupe key). `None` unless the log is a JSON object with a string `format`.
pub fn format_of(bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(borrow)]
        format: Option<std::borrow::Cow<'a, str>>,
    }
    if bytes.len() > MAX_LOG_BYTES {
        return None;
    }
    serde_json::from_slice::<Head<'_>>(bytes).ok()?.format.map(std::borrow::Cow::into_owned)
}

/// The canonical JSON text of a value (sorted keys, no whitespace).
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// The reference form of [`identify`]'s text, over a `serde_json::Value`.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(v, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// A JSON value parsed for the canonical form only: objects are plain lists of entries (no
/// hashing, unlike `serde_json::Value` with `preserve_order`), which makes [`identify`] several
/// times faster. [`Canon::normalize`] gives them `Value`'s semantics: sorted keys, and of a
/// repeated key only the last value.
enum Canon {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Canon>),
    Object(Vec<(String, Canon)>),
}

impl Canon {
    fn normalize(&mut self) {
        match self {
            Canon::Array(items) => items.iter_mut().for_each(Canon::normalize),
            Canon::Object(entries) => {
                // Stable sort: equal keys stay in input order, and the last one wins.
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                let mut kept: Vec<(String, Canon)> = Vec::with_capacity(entries.len());
                for (k, v) in entries.drain(..) {
                    match kept.last_mut() {
                        Some(last) if last.0 == k => last.1 = v,
                        _ => kept.push((k, v)),
                    }
                }
                kept.iter_mut().for_each(|(_, v)| v.normalize());
                *entries = kept;
            }
            _ => {}
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        // Writing JSON into a Vec cannot fail.
        match self {
            Canon::Null => out.extend_from_slice(b"null"),
            Canon::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Canon::Number(n) => {
                let _ = serde_json::to_writer(&mut *out, n);
            }
            Canon::String(s) => {
                let _ = serde_json::to_writer(&mut *out, s);
            }
            Canon::Array(items) => {
                out.push(b'[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    v.write(out);
                }
                out.push(b']');
            }
            Canon::Object(entries) => {
                out.push(b'{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    let _ = serde_json::to_writer(&mut *out, k);
                    out.push(b':');
                    v.write(out);
                }
                out.push(b'}');
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Canon {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Canon, D::Error> {
        d.deserialize_any(CanonVisitor)
    }
}

struct CanonVisitor;

impl<'de> serde::de::Visitor<'de> for CanonVisitor {
    type Value = Canon;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Canon, E> {
        Ok(Canon::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Canon, E> {
        Ok(Canon::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Canon, E> {
        Ok(Canon::Number(n.into()))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Canon, E> {
        Ok(Canon::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Canon, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Canon::Null, Canon::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Canon, E> {
        Ok(Canon::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Canon, E> {
        Ok(Canon::String(s))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Canon, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Canon::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Canon, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Canon>()? {
            entries.push((k, v));
        }
        Ok(Canon::Object(entries))
    }
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_and_whitespace_do_not_matter() {
        let a = identify(br#"{"format": "caverna-log/1", "setup": {"b": 1, "a": [1, {"d": 2, "c": 3}]}}"#);
        let b = identify(b"{\"setup\":{\"a\":[1,{\"c\":3,\"d\":2}],\"b\":1},\n \"format\":\"caverna-log/1\"}");
        assert_eq!(a, b);
        assert_eq!(a.format.as_deref(), Some("caverna-log/1"));
        assert_eq!(a.sha256.len(), 64);
    }

    #[test]
    fn values_matter() {
        let a = identify(br#"{"setup": {"seed": 1}}"#);
        let b = identify(br#"{"setup": {"seed": 2}}"#);
        assert_ne!(a.sha256, b.sha256);
    }

    #[test]
    fn canonical_form_is_sorted_and_compact() {
        let v: Value = serde_json::from_str(r#"{ "z": "\u00e9\n", "a": [true, null, 1.5], "é": {} }"#).unwrap();
        assert_eq!(canonical_json(&v), r#"{"a":[true,null,1.5],"z":"é\n","é":{}}"#);
    }

    /// The fast path's text is the reference form's, for every golden log and odd corners.
    #[test]
    fn fast_path_equals_the_value_form() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/games");
        let mut texts: Vec<Vec<u8>> =
            std::fs::read_dir(&dir).unwrap().map(|e| std::fs::read(e.unwrap().path()).unwrap()).collect();
        texts.push(
            br#"{"b": 1, "a": 2, "b": [1.5, -0.0, 1e300, 12345678901234567890, -9], "\u00e9\n\"": {"z": null}}"#
                .to_vec(),
        );
        texts.push(b"[1, \"x\", {\"k\": false}]".to_vec());
        texts.push(b"\"just a string\"".to_vec());
        assert!(texts.len() > 50);
        for t in texts {
            let v: Value = serde_json::from_slice(&t).unwrap();
            let reference = hex(&Sha256::digest(canonical_json(&v).as_bytes()));
            assert_eq!(identify(&t).sha256, reference, "{}", String::from_utf8_lossy(&t));
        }
    }

    #[test]
    fn not_json_hashes_the_bytes() {
        let id = identify(b"not json");
        assert_eq!(id.format, None);
        assert_eq!(id.sha256, hex(&Sha256::digest(b"not json")));
    }
}
