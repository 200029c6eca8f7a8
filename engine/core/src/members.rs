//! Reading a log's envelope without a JSON tree, shared by the engines: the top-level members
//! as their text in the log ([`Members`]), typed parts read straight from their text with the
//! tree reading as the fallback that words every error ([`read`]), and the tree reader's verdict
//! on the whole log for what member-by-member reading does not notice ([`tree_rejects`]).

use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// The top-level members of a log in document order, each as its text (borrowed).
pub struct Members<'a>(pub Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Visit)
    }
}

impl<'a> Members<'a> {
    /// The member's text (the last one, as a JSON object with a repeated member reads).
    pub fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The first member (in document order) whose name is not one of `known`.
    pub fn unknown(&self, known: &[&str]) -> Option<&str> {
        self.0.iter().map(|(k, _)| k.as_str()).find(|k| !known.contains(k))
    }

    /// Whether some member is written more than once.
    pub fn repeated(&self) -> bool {
        self.first_repeated().is_some()
    }

    /// The first member (in document order) written a second time, by its name.
    pub fn first_repeated(&self) -> Option<&str> {
        self.0
            .iter()
            .enumerate()
            .find(|(i, (k, _))| self.0[..*i].iter().any(|(o, _)| o == k))
            .map(|(_, (k, _))| k.as_str())
    }
}

/// The member's text unless it is absent or `null`.
pub fn present(raw: Option<&RawValue>) -> Option<&RawValue> {
    raw.filter(|r| r.get() != "null")
}

/// Reads a typed part straight from its text. When that fails, the part is read again through
/// a JSON tree, as logs have always been read: a member repeated in an object then counts once
/// (the last), and the error is the one that reading gives.
pub fn read<T: DeserializeOwned>(raw: &RawValue) -> Result<T, serde_json::Error> {
    serde_json::from_str(raw.get()).or_else(|_| {
        let value: Value = serde_json::from_str(raw.get())?;
        serde_json::from_value(value)
    })
}

/// Why the tree reader refuses the whole log (a number out of a double's range, say, which
/// member-by-member reading does not notice), if it does: engines check it on the way out of
/// every invalid log, so such a log is `malformed_json` wherever its first rule error is.
///
/// The tree is never built: [`TreeCheck`] visits the document as a tree reader does (every
/// number parsed as the tree parses it, every string decoded) without keeping any of it, so the
/// check costs about one read of the log whatever its shape (a map of 100,000 cities costs a
/// tree of 100,000 objects otherwise).
pub fn tree_rejects(input: &[u8]) -> Option<serde_json::Error> {
    serde_json::from_slice::<TreeCheck>(input).err()
}

/// The private member name by which serde_json's tree reader takes an object for a raw value
/// (its `raw_value` feature): such an object is read as its one string, parsed as JSON.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// A member name, read as the tree reader reads one, and whether it is [`RAW_VALUE_TOKEN`].
struct RawToken(bool);

impl<'de> Deserialize<'de> for RawToken {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Key;
        impl Visitor<'_> for Key {
            type Value = RawToken;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_str<E>(self, key: &str) -> Result<RawToken, E> {
                Ok(RawToken(key == RAW_VALUE_TOKEN))
            }
        }
        d.deserialize_str(Key)
    }
}

/// The string of a [`RAW_VALUE_TOKEN`] member, checked as JSON as the tree reader checks it.
struct RawText;

impl<'de> Deserialize<'de> for RawText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = RawText;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("raw value")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<RawText, E> {
                serde_json::from_str::<TreeCheck>(text).map(|_| RawText).map_err(E::custom)
            }
        }
        d.deserialize_string(Text)
    }
}

/// A JSON value visited exactly as [`Value`]'s reader visits it, and dropped as it is read.
pub struct TreeCheck;

impl<'de> Deserialize<'de> for TreeCheck {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TreeCheckVisitor)
    }
}

struct TreeCheckVisitor;

impl<'de> Visitor<'de> for TreeCheckVisitor {
    type Value = TreeCheck;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<TreeCheck, E> {
        Ok(TreeCheck)
    }
    fn visit_i64<E>(self, _: i64) -> Result<TreeCheck, E> {
        Ok(TreeCheck)
    }
    fn visit_u64<E>(self, _: u64) -> Result<TreeCheck, E> {
        Ok(TreeCheck)
    }
    fn visit_f64<E>(self, _: f64) -> Result<TreeCheck, E> {
        Ok(TreeCheck)
    }
    fn visit_str<E>(self, _: &str) -> Result<TreeCheck, E> {
        Ok(TreeCheck)
    }
    fn visit_unit<E>(self) -> Result<TreeCheck, E> {
        Ok(TreeCheck)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<TreeCheck, A::Error> {
        while seq.next_element::<TreeCheck>()?.is_some() {}
        Ok(TreeCheck)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TreeCheck, A::Error> {
        let Some(RawToken(first)) = map.next_key::<RawToken>()? else { return Ok(TreeCheck) };
        if first {
            // As the tree reader does: the member's string is itself read as JSON.
            return map.next_value::<RawText>().map(|_| TreeCheck);
        }
        map.next_value::<TreeCheck>()?;
        while map.next_key::<RawToken>()?.is_some() {
            map.next_value::<TreeCheck>()?;
        }
        Ok(TreeCheck)
    }
}

/// A serde error's text without " at line L column C": a part read from its own text is
/// placed within that part, not in the log (and a part read from a tree has no place).
pub fn without_place(e: &serde_json::Error) -> String {
    let mut text = e.to_string();
    if e.line() > 0 {
        let place = format!(" at line {} column {}", e.line(), e.column());
        if text.ends_with(&place) {
            text.truncate(text.len() - place.len());
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_keep_document_order_and_the_last_copy() {
        let m: Members = serde_json::from_str(r#"{"b": 1, "a": null, "b": [2], "x": {}}"#).unwrap();
        assert_eq!(m.get("b").map(RawValue::get), Some("[2]"));
        assert!(m.repeated());
        assert_eq!(m.first_repeated(), Some("b"));
        assert_eq!(m.unknown(&["a", "b"]), Some("x"));
        assert!(present(m.get("a")).is_none() && present(m.get("x")).is_some());
        let once: Members = serde_json::from_str(r#"{"a": 1}"#).unwrap();
        assert!(!once.repeated());
    }

    #[test]
    fn typed_reads_fall_back_to_the_tree_reading() {
        #[derive(Deserialize, Debug, PartialEq)]
        #[serde(deny_unknown_fields)]
        struct P {
            n: u8,
        }
        let raw: &RawValue = serde_json::from_str(r#"{"n": 1, "n": 2}"#).unwrap();
        assert_eq!(read::<P>(raw).unwrap(), P { n: 2 }, "a repeated member counts once, the last");
        let raw: &RawValue = serde_json::from_str(r#"{"n": "x"}"#).unwrap();
        let e = read::<P>(raw).unwrap_err();
        assert_eq!(without_place(&e), e.to_string(), "the tree reading's error has no place");
        assert!(tree_rejects(br#"{"n": 1e999}"#).is_some() && tree_rejects(br#"{"n": 1}"#).is_none());
    }

    /// `tree_rejects` answers as building the tree does, error text and place included, on
    /// documents the member-by-member reading lets through and on ordinary ones.
    #[test]
    fn the_tree_check_refuses_what_the_tree_reader_refuses() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let cases: Vec<String> = vec![
            r#"{"n": 1e999}"#.into(),
            r#"{"n": -1e400, "m": 1}"#.into(),
            r#"{"n": 1e-400}"#.into(),
            r#"{"n": 123456789012345678901234567890}"#.into(),
            r#"{"s": "\ud800"}"#.into(),
            r#"{"s": "\ud800\udc00", "t": "\u0000"}"#.into(),
            r#"{"a": [1, 2, {"b": null, "b": true}]}"#.into(),
            r#"{"$serde_json::private::RawValue": "{\"x\": 1}"}"#.into(),
            r#"{"$serde_json::private::RawValue": "{\"x\": 1e999}"}"#.into(),
            r#"{"$serde_json::private::RawValue": 3}"#.into(),
            r#"{"k": {"$serde_json::private::RawValue": "[1"}}"#.into(),
            r#"{} x"#.into(),
            r#"{"a": 1,}"#.into(),
            r#"[]"#.into(),
            r#"{}"#.into(),
            deep,
        ];
        for case in cases {
            let tree = serde_json::from_str::<Value>(&case).err().map(|e| e.to_string());
            let check = tree_rejects(case.as_bytes()).map(|e| e.to_string());
            assert_eq!(check, tree, "{case}");
        }
    }
}
