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
//!
//! Two readings give the same text: [`plain`] for the plain logs nearly all logs are (no tree,
//! no allocation per value), and a tree of the values for everything it declines.

use serde_json::Value;
use sha2::{Digest, Sha256};

use chronicle_game::envelope::MAX_LOG_BYTES;

mod plain;

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
    let canonical = (bytes.len() <= MAX_LOG_BYTES).then(|| {
        plain::canonical(bytes)
            .map(|(text, format)| (text, format.map(str::to_owned)))
            .or_else(|| tree_canonical(bytes))
    });
    match canonical.flatten() {
        Some((text, format)) => Identity { sha256: hex(&Sha256::digest(&text)), format },
        None => Identity { sha256: hex(&Sha256::digest(bytes)), format: None },
    }
}

/// The canonical text and top-level `format` of any JSON document, through a tree of its
/// values (the general reading, for what [`plain`] declines); `None` when it is not JSON.
fn tree_canonical(bytes: &[u8]) -> Option<(Vec<u8>, Option<String>)> {
    let mut value = serde_json::from_slice::<Canon<'_>>(bytes).ok()?;
    value.normalize();
    let format = match &value {
        Canon::Object(entries) => entries.iter().find(|(k, _)| k.as_str() == "format").and_then(|(_, v)| match v {
            Canon::String(s) => Some(s.as_str().to_owned()),
            _ => None,
        }),
        _ => None,
    };
    // The canonical text is about as long as the log (less its whitespace).
    let mut text = Vec::with_capacity(bytes.len());
    value.write(&mut text);
    Some((text, format))
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
/// hashing, unlike `serde_json::Value` with `preserve_order`), and strings without escapes
/// borrow the log's text instead of being copied (most keys and values of a log: no
/// allocation per string), which makes [`identify`] several times faster. [`Canon::normalize`]
/// gives objects `Value`'s semantics: sorted keys, and of a repeated key only the last value.
enum Canon<'a> {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(Text<'a>),
    Array(Vec<Canon<'a>>),
    Object(Vec<(Text<'a>, Canon<'a>)>),
}

/// A string of the log: `Raw` is the text between the quotes of a string without escapes,
/// which `serde_json` writes back unchanged (it escapes only `"`, `\` and control characters,
/// none of which can stand unescaped in a JSON string); `Decoded` is a string that had escapes,
/// written back by `serde_json` (its escapes may differ from the log's).
enum Text<'a> {
    Raw(&'a str),
    Decoded(String),
}

impl Text<'_> {
    fn as_str(&self) -> &str {
        match self {
            Text::Raw(s) => s,
            Text::Decoded(s) => s,
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Text::Raw(s) => {
                out.push(b'"');
                out.extend_from_slice(s.as_bytes());
                out.push(b'"');
            }
            // Writing JSON into a Vec cannot fail.
            Text::Decoded(s) => {
                let _ = serde_json::to_writer(&mut *out, s);
            }
        }
    }
}

impl Canon<'_> {
    fn normalize(&mut self) {
        match self {
            Canon::Array(items) => items.iter_mut().for_each(Canon::normalize),
            Canon::Object(entries) => {
                // Stable sort: equal keys stay in input order, and the last one wins (its value
                // is moved into the first of the run, which `dedup_by` keeps).
                entries.sort_by(|a, b| a.0.as_str().as_bytes().cmp(b.0.as_str().as_bytes()));
                entries.dedup_by(|later, kept| {
                    let same = later.0.as_str() == kept.0.as_str();
                    if same {
                        std::mem::swap(&mut later.1, &mut kept.1);
                    }
                    same
                });
                entries.iter_mut().for_each(|(_, v)| v.normalize());
            }
            _ => {}
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Canon::Null => out.extend_from_slice(b"null"),
            Canon::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            // Writing JSON into a Vec cannot fail.
            Canon::Number(n) => {
                let _ = serde_json::to_writer(&mut *out, n);
            }
            Canon::String(s) => s.write(out),
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
                    k.write(out);
                    out.push(b':');
                    v.write(out);
                }
                out.push(b'}');
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Canon<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Canon<'de>, D::Error> {
        d.deserialize_any(CanonVisitor)
    }
}

struct CanonVisitor;

impl<'de> serde::de::Visitor<'de> for CanonVisitor {
    type Value = Canon<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Canon<'de>, E> {
        Ok(Canon::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Canon<'de>, E> {
        Ok(Canon::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Canon<'de>, E> {
        Ok(Canon::Number(n.into()))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Canon<'de>, E> {
        Ok(Canon::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Canon<'de>, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Canon::Null, Canon::Number))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Canon<'de>, E> {
        Ok(Canon::String(Text::Raw(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Canon<'de>, E> {
        Ok(Canon::String(Text::Decoded(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Canon<'de>, E> {
        Ok(Canon::String(Text::Decoded(s)))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Canon<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Canon::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Canon<'de>, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(k) = map.next_key_seed(KeySeed)? {
            entries.push((k, map.next_value()?));
        }
        Ok(Canon::Object(entries))
    }
}

/// An object key as a [`Text`]: borrowed from the log when it has no escapes.
struct KeySeed;

impl<'de> serde::de::DeserializeSeed<'de> for KeySeed {
    type Value = Text<'de>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Text<'de>, D::Error> {
        d.deserialize_str(KeySeed)
    }
}

impl<'de> serde::de::Visitor<'de> for KeySeed {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
        Ok(Text::Raw(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
        Ok(Text::Decoded(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Text<'de>, E> {
        Ok(Text::Decoded(s))
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

    /// The key of `text` as the reference form over `serde_json::Value` gives it.
    fn reference(text: &[u8]) -> String {
        let v: Value = serde_json::from_slice(text).unwrap();
        hex(&Sha256::digest(canonical_json(&v).as_bytes()))
    }

    /// Strings borrowed from the log and strings with escapes, repeated keys (the last wins,
    /// also when the repeats differ only in their escapes), unicode and the numbers `serde_json`
    /// rewrites: each key is the reference form's.
    #[test]
    fn escapes_repeats_unicode_and_numbers_equal_the_value_form() {
        let texts: [&str; 16] = [
            r#"{"a": "plain", "b": "tab\tquote\"backslash\\slash\/", "c": "\u00e9\u2028\ud83d\ude00"}"#,
            r#"{"k": 1, "k": 2, "\u006b": 3, "j": {"x": [1], "x": {"y": null}}}"#,
            r#"{"\u006b": 1, "k": 2}"#,
            "{\"é\": \"ü\", \"e\": \"\u{7f}\", \"𝄞\": [\"\u{2028}\", \"日本\"], \"\": \"\"}",
            r#"[1.0, 1e5, -0, -0.0, 0, -1, 1E-7, 1.5e300, 18446744073709551615, 18446744073709551616]"#,
            r#"[-9223372036854775808, -9223372036854775809, 3.141592653589793, 2.5E+3, 100000000000000000000e-2]"#,
            r#"{"b": {"d": {"f": [{"h": 1, "g": 2}], "e": true}, "c": false}, "a": []}"#,
            r#"{"z": {}, "y": [], "x": [[]], "w": [{}], "v": ""}"#,
            r#""\u0000\u001f\u007f""#,
            "  {\n\t\"spaced\" :\r\n [ 1 , 2 ] }  ",
            r#"{"B": 1, "a": 2, "_": 3, "0": 4, "~": 5, "aa": 6, "a\u0000": 7}"#,
            r#"{"format": "caverna-log/1", "format": "x"}"#,
            r#"{"format": "caverna\u002dlog/1"}"#,
            "null",
            "true",
            "-12.50",
        ];
        for t in texts {
            assert_eq!(identify(t.as_bytes()).sha256, reference(t.as_bytes()), "{t}");
        }
        assert_eq!(identify(br#"{"format": "a", "format": "b"}"#).format.as_deref(), Some("b"));
        assert_eq!(identify(br#"{"format": "a\u002db"}"#).format.as_deref(), Some("a-b"));
    }

    /// Simulated logs of every game, compact and pretty, and with keys and values that need
    /// escapes: each key is the reference form's.
    #[test]
    fn simulated_logs_equal_the_value_form() {
        let mut checked = 0;
        for &kind in chronicle_game::GameKind::ALL {
            for seed in 0..8u64 {
                let players = 2 + u8::try_from(seed % 3).unwrap_or(0);
                let Ok(log) = crate::games::simulate(kind, seed, players) else { continue };
                let compact = serde_json::to_vec(&log).unwrap();
                let pretty = serde_json::to_vec_pretty(&log).unwrap();
                let escaped = String::from_utf8(compact.clone()).unwrap().replace("\"s", "\"\\u0073").into_bytes();
                for t in [compact, pretty, escaped] {
                    assert_eq!(identify(&t).sha256, reference(&t));
                    checked += 1;
                }
            }
        }
        assert!(checked >= 24, "{checked} logs");
    }

    /// Every log the engines' fixtures and simulations hold, compact and pretty, and plain
    /// corners: the plain reading reads each one and gives the tree's text and format.
    #[test]
    fn plain_reading_gives_the_trees_text() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for dir in ["tests/fixtures/games", "engine/village/tests/fixtures", "engine/above-and-below/tests/fixtures"] {
            for e in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = e.unwrap().path();
                let text = std::fs::read(&path).unwrap();
                // Plain: no escapes, no fractions (any `.`, even in a string, leaves a file out).
                let plain = path.extension().is_some_and(|x| x == "json") && !text.contains(&b'\\');
                if plain && !text.contains(&b'.') && serde_json::from_slice::<Value>(&text).is_ok() {
                    texts.push(text);
                }
            }
        }
        for &kind in chronicle_game::GameKind::ALL {
            for seed in 0..4u64 {
                let Ok(log) = crate::games::simulate(kind, seed, 3) else { continue };
                texts.push(serde_json::to_vec(&log).unwrap());
                texts.push(serde_json::to_vec_pretty(&log).unwrap());
            }
        }
        assert!(texts.len() > 100, "{} logs", texts.len());
        let corners: [&str; 9] = [
            r#"{"b": 1, "a": 2, "b": [3, {"z": null, "y": true, "z": false}], "format": 7, "format": "x"}"#,
            r#"{"format": "x", "format": 7}"#,
            "{\"é\": \"ü\", \"e\": \"\u{7f}\u{2028}\", \"𝄞\": [\"日本\"], \"\": \"\"}",
            "  {\n\t\"spaced\" :\r\n [ 1 , -2 , 0 ] }  ",
            r#"[123456789012345678, -123456789012345678, 0, -1]"#,
            r#"{"z": {}, "y": [], "x": [[]], "w": [{}], "v": ""}"#,
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
            "null",
            r#""just a string""#,
        ];
        texts.extend(corners.iter().map(|c| c.as_bytes().to_vec()));
        for t in &texts {
            let (plain, format) =
                plain::canonical(t).unwrap_or_else(|| panic!("declined: {}", String::from_utf8_lossy(t)));
            let (tree, tree_format) = tree_canonical(t).expect("JSON");
            assert_eq!(plain, tree, "{}", String::from_utf8_lossy(t));
            assert_eq!(format.map(str::to_owned), tree_format);
        }
    }

    /// What the plain reading would not read exactly as the tree does, it declines; the key is
    /// then the tree's (or the raw bytes', for what is not JSON).
    #[test]
    fn plain_reading_declines_what_it_does_not_read_exactly() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let declined: Vec<Vec<u8>> = [
            r#"{"a": "tab\t"}"#,
            r#"{"\u0061": 1}"#,
            "[1.0]",
            "[1e5]",
            "[2E-3]",
            "[1234567890123456789]",
            "[-0]",
            "[01]",
            "[-]",
            "[1,]",
            "{\"a\": 1,}",
            "{\"a\" 1}",
            "[1] x",
            "",
            "   ",
            "[tru]",
            "[nulls]",
            "{\"a\": \"line\nbreak\"}",
            "{'a': 1}",
        ]
        .iter()
        .map(|t| t.as_bytes().to_vec())
        .chain([nested(65).into_bytes(), nested(200).into_bytes(), b"[\"\xff\"]".to_vec()])
        .collect();
        assert!(plain::canonical(nested(64).as_bytes()).is_some());
        for t in &declined {
            assert!(plain::canonical(t).is_none(), "read: {}", String::from_utf8_lossy(t));
            let expected = match serde_json::from_slice::<Value>(t) {
                Ok(_) => reference(t),
                Err(_) => hex(&Sha256::digest(t)),
            };
            assert_eq!(identify(t).sha256, expected, "{}", String::from_utf8_lossy(t));
        }
    }

    /// Logs edited byte by byte (2,000 edits of one byte into a JSON-significant or invalid
    /// one, from a fixed seed): whatever the plain reading reads, the tree reads to the same
    /// text and format.
    #[test]
    fn plain_reading_reads_nothing_the_tree_reads_otherwise() {
        const BYTES: &[u8] = b"\"\\.eE0-+,:[]{} \n\x01\xffa1tn";
        let log =
            serde_json::to_vec(&crate::games::simulate(chronicle_game::GameKind::Caverna, 1, 2).unwrap()).unwrap();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(state >> 33).unwrap() % n
        };
        let (mut read, mut declined) = (0, 0);
        for _ in 0..2_000 {
            let mut t = log.clone();
            let at = next(t.len());
            t[at] = BYTES[next(BYTES.len())];
            match plain::canonical(&t) {
                Some((text, format)) => {
                    read += 1;
                    let (tree, tree_format) = tree_canonical(&t).expect("the tree reads it too");
                    assert!(text == tree && format.map(str::to_owned) == tree_format, "edit at {at}");
                }
                None => declined += 1,
            }
        }
        assert!(read > 100 && declined > 100, "{read} read, {declined} declined");
    }

    #[test]
    fn not_json_hashes_the_bytes() {
        let id = identify(b"not json");
        assert_eq!(id.format, None);
        assert_eq!(id.sha256, hex(&Sha256::digest(b"not json")));
    }
}
