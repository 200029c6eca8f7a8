//! The mutator: turns a seed log into a case, deterministically from `(seed, case index)`.
//!
//! Most operators work on the parsed log (`serde_json::Value`), so that the result is still
//! JSON and still looks like a log: the engine's checks beyond the parser (envelope, setup,
//! entry notation, rules, scoring) are what we want to reach. A few operators damage the
//! serialized bytes so that malformed JSON is exercised as well. Each case applies 1–4
//! operators, chosen with weights by a SplitMix64 generator seeded from the case.

use chronicle_caverna::shuffle::SplitMix64;
use serde_json::{json, Map, Value};

use crate::corpus::Corpus;

/// One mutation operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    /// Replace a value by one of another JSON type.
    OtherType,
    /// Replace a value by a boundary value (huge, negative, `-0`, 1e308, empty or 10k-char
    /// strings, deep arrays, numbers no `f64`/`u64` holds…).
    Boundary,
    /// Add or subtract one from a number.
    Nudge,
    /// Replace a string by another id seen in the corpus or the engine's vocabulary.
    SwapId,
    DeleteElement,
    DuplicateElement,
    SwapElements,
    MoveElement,
    DeleteKey,
    /// Add a key (seen in the corpus, or unknown) holding a value taken from some seed log.
    AddKey,
    /// Cut the entries list short.
    TruncateEntries,
    /// Insert a run of entries of another seed log, or replace this log's tail by one.
    SpliceEntries,
    FlipBit,
    InsertBytes,
    DeleteBytes,
    TruncateBytes,
}

impl Operator {
    pub const ALL: [Operator; 16] = [
        Operator::OtherType,
        Operator::Boundary,
        Operator::Nudge,
        Operator::SwapId,
        Operator::DeleteElement,
        Operator::DuplicateElement,
        Operator::SwapElements,
        Operator::MoveElement,
        Operator::DeleteKey,
        Operator::AddKey,
        Operator::TruncateEntries,
        Operator::SpliceEntries,
        Operator::FlipBit,
        Operator::InsertBytes,
        Operator::DeleteBytes,
        Operator::TruncateBytes,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Operator::OtherType => "other_type",
            Operator::Boundary => "boundary",
            Operator::Nudge => "nudge",
            Operator::SwapId => "swap_id",
            Operator::DeleteElement => "delete_element",
            Operator::DuplicateElement => "duplicate_element",
            Operator::SwapElements => "swap_elements",
            Operator::MoveElement => "move_element",
            Operator::DeleteKey => "delete_key",
            Operator::AddKey => "add_key",
            Operator::TruncateEntries => "truncate_entries",
            Operator::SpliceEntries => "splice_entries",
            Operator::FlipBit => "flip_bit",
            Operator::InsertBytes => "insert_bytes",
            Operator::DeleteBytes => "delete_bytes",
            Operator::TruncateBytes => "truncate_bytes",
        }
    }

    /// Index into [`Operator::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Works on the serialized bytes rather than on the parsed log.
    pub fn is_textual(self) -> bool {
        matches!(self, Operator::FlipBit | Operator::InsertBytes | Operator::DeleteBytes | Operator::TruncateBytes)
    }

    /// How often the operator is drawn, relative to the others. Byte damage is rare (about
    /// one operator in twelve) because a log that no longer parses stops at the parser; the
    /// structural operators are what reach the rules.
    fn weight(self) -> u64 {
        match self {
            Operator::Nudge | Operator::SwapId => 12,
            Operator::OtherType | Operator::Boundary | Operator::DeleteElement => 8,
            Operator::DuplicateElement | Operator::SwapElements | Operator::DeleteKey => 6,
            Operator::MoveElement | Operator::AddKey | Operator::SpliceEntries => 5,
            Operator::TruncateEntries => 4,
            Operator::FlipBit | Operator::InsertBytes | Operator::DeleteBytes => 2,
            Operator::TruncateBytes => 1,
        }
    }
}

/// Most operators applied to one case.
pub const MAX_OPERATORS: usize = 4;

/// One generated case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Index of the seed log in the corpus.
    pub base: usize,
    /// The operators actually applied, in order (an operator that found nothing to act on is
    /// replaced by [`Operator::OtherType`] on a random value, which always applies).
    pub operators: Vec<Operator>,
    pub bytes: Vec<u8>,
}

/// The generator of case `index` of a campaign with seed `seed`: SplitMix64 seeded with
/// `seed` gives a start, case `index` uses SplitMix64 seeded with the first output for
/// `start + index`. Independent of how cases are spread over threads.
pub fn case_rng(seed: u64, index: u64) -> SplitMix64 {
    let start = SplitMix64::new(seed).next_u64();
    SplitMix64::new(SplitMix64::new(start.wrapping_add(index)).next_u64())
}

/// Case `index` of a campaign with seed `seed` over `corpus`.
pub fn generate(corpus: &Corpus, seed: u64, index: u64) -> Case {
    let mut rng = case_rng(seed, index);
    let base = rng.below(corpus.logs.len());
    let pretty = rng.below(8) == 0;
    let mut doc = Doc::Tree(corpus.logs[base].log.clone());
    let count = 1 + rng.below(MAX_OPERATORS);
    let operators = (0..count).map(|_| doc.mutate(draw_operator(&mut rng), corpus, &mut rng, pretty)).collect();
    Case { base, operators, bytes: doc.into_bytes(pretty) }
}

/// An operator, drawn with the weights of [`Operator::weight`].
fn draw_operator(rng: &mut SplitMix64) -> Operator {
    let total: u64 = Operator::ALL.iter().map(|o| o.weight()).sum();
    let mut pick = rng.next_u64() % total;
    for op in Operator::ALL {
        if pick < op.weight() {
            return op;
        }
        pick -= op.weight();
    }
    Operator::OtherType
}

/// The log being mutated: parsed while only structural operators have run, bytes after the
/// first byte-level one.
enum Doc {
    Tree(Value),
    Text(Vec<u8>),
}

impl Doc {
    /// Applies `op` (or a substitute) and returns the operator applied. A structural operator
    /// on damaged bytes applies when the bytes still parse, else a byte-level one runs.
    fn mutate(&mut self, op: Operator, corpus: &Corpus, rng: &mut SplitMix64, pretty: bool) -> Operator {
        if !op.is_textual() {
            if let Doc::Text(bytes) = self {
                match serde_json::from_slice(bytes) {
                    Ok(tree) => *self = Doc::Tree(tree),
                    Err(_) => return self.mutate(Operator::FlipBit, corpus, rng, pretty),
                }
            }
        }
        match self {
            Doc::Tree(tree) if !op.is_textual() => {
                if structural(tree, op, corpus, rng) {
                    op
                } else {
                    replace_with_other_type(tree, corpus, rng);
                    Operator::OtherType
                }
            }
            _ => {
                let mut bytes = std::mem::replace(self, Doc::Text(Vec::new())).into_bytes(pretty);
                textual(&mut bytes, op, rng);
                *self = Doc::Text(bytes);
                op
            }
        }
    }

    fn into_bytes(self, pretty: bool) -> Vec<u8> {
        match self {
            Doc::Tree(tree) => serialize(&tree, pretty),
            Doc::Text(bytes) => bytes,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Structural operators
// ---------------------------------------------------------------------------------------------

/// Applies a structural operator; `false` when the log has nothing it applies to.
fn structural(doc: &mut Value, op: Operator, corpus: &Corpus, rng: &mut SplitMix64) -> bool {
    match op {
        Operator::OtherType => replace_with_other_type(doc, corpus, rng),
        Operator::Boundary => replace_at(doc, rng, |_| true, boundary_value),
        Operator::Nudge => replace_at(doc, rng, Value::is_number, nudged),
        Operator::SwapId => replace_at(doc, rng, Value::is_string, |_, rng| Value::String(pick(&corpus.ids, rng))),
        Operator::DeleteElement => edit_array(doc, rng, 1, delete_element),
        Operator::DuplicateElement => edit_array(doc, rng, 1, duplicate_element),
        Operator::SwapElements => edit_array(doc, rng, 2, swap_elements),
        Operator::MoveElement => edit_array(doc, rng, 2, move_element),
        Operator::DeleteKey => delete_key(doc, rng),
        Operator::AddKey => add_key(doc, corpus, rng),
        Operator::TruncateEntries => truncate_entries(doc, rng),
        Operator::SpliceEntries => splice_entries(doc, corpus, rng),
        Operator::FlipBit | Operator::InsertBytes | Operator::DeleteBytes | Operator::TruncateBytes => false,
    }
}

/// Where a structural operator acts: mostly inside the entries (where the rules are), else
/// inside the setup or anywhere in the document (envelope, meta, claimed scores).
fn region<'a>(doc: &'a mut Value, rng: &mut SplitMix64) -> &'a mut Value {
    let key = match rng.below(10) {
        0..=5 => "entries",
        6 | 7 => "setup",
        _ => return doc,
    };
    if doc.get(key).is_some() {
        // Indexing cannot panic: `doc` is an object holding `key`.
        &mut doc[key]
    } else {
        doc
    }
}

/// Number of values in `v` (itself included) for which `want` holds.
fn count(v: &Value, want: fn(&Value) -> bool) -> usize {
    let inner = match v {
        Value::Array(a) => a.iter().map(|x| count(x, want)).sum(),
        Value::Object(o) => o.values().map(|x| count(x, want)).sum(),
        _ => 0,
    };
    inner + usize::from(want(v))
}

/// The `n`-th value (pre-order, from 0) for which `want` holds.
fn nth_mut<'a>(v: &'a mut Value, n: &mut usize, want: fn(&Value) -> bool) -> Option<&'a mut Value> {
    if want(v) {
        if *n == 0 {
            return Some(v);
        }
        *n -= 1;
    }
    match v {
        Value::Array(a) => a.iter_mut().find_map(|x| nth_mut(x, n, want)),
        Value::Object(o) => o.values_mut().find_map(|x| nth_mut(x, n, want)),
        _ => None,
    }
}

/// A value of the region, uniformly among those for which `want` holds.
fn pick_value<'a>(doc: &'a mut Value, rng: &mut SplitMix64, want: fn(&Value) -> bool) -> Option<&'a mut Value> {
    let region = region(doc, rng);
    let n = count(region, want);
    if n == 0 {
        return None;
    }
    nth_mut(region, &mut rng.below(n), want)
}

/// Replaces a value for which `want` holds by `make(old, rng)`.
fn replace_at(
    doc: &mut Value,
    rng: &mut SplitMix64,
    want: fn(&Value) -> bool,
    make: impl FnOnce(&Value, &mut SplitMix64) -> Value,
) -> bool {
    let Some(slot) = pick_value(doc, rng, want) else {
        return false;
    };
    *slot = make(slot, rng);
    true
}

/// Always applies: the region itself is a candidate.
fn replace_with_other_type(doc: &mut Value, corpus: &Corpus, rng: &mut SplitMix64) -> bool {
    replace_at(doc, rng, |_| true, |old, rng| other_type(old, corpus, rng))
}

/// A small value of a JSON type other than `old`'s.
fn other_type(old: &Value, corpus: &Corpus, rng: &mut SplitMix64) -> Value {
    let kind = |v: &Value| match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    };
    // One of the five other kinds: skip over the old one.
    let mut k = rng.below(5);
    if k >= kind(old) {
        k += 1;
    }
    match k {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 1),
        2 => json!(rng.below(12) as i64 - 2),
        3 => Value::String(pick(&corpus.ids, rng)),
        4 if rng.below(2) == 0 => json!([]),
        4 => json!([old.clone()]),
        _ if rng.below(2) == 0 => json!({}),
        _ => json!({ pick(&corpus.keys, rng): old.clone() }),
    }
}

/// Numbers no `u64`, `i64` or finite `f64` holds, and spellings the format never uses; they
/// cannot be a `serde_json::Value`, so they stand in the tree as a marker string that
/// [`serialize`] replaces by the raw token.
const RAW_TOKENS: [&str; 8] = [
    "1e400",
    "-1e400",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "-0",
    "1E+2",
    "0.0000000000000000000000001",
];
const RAW_MARKER: &str = "\u{1}raw:";

/// Depth of the deep-array boundary values: one the parser accepts, one past its recursion
/// limit of 128.
const DEEP: [usize; 2] = [100, 200];

/// A boundary value (see [`Operator::Boundary`]).
fn boundary_value(_old: &Value, rng: &mut SplitMix64) -> Value {
    match rng.below(22) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(i64::MIN),
        4 => json!(1e308),
        5 => json!(-1e308),
        6 => json!(-0.0),
        7 => json!(0.5),
        8 => json!(1u64 << 53),
        9 => json!((1u64 << 53) + 1),
        10 => json!(u64::from(u32::MAX) + 1),
        11 => json!(255),
        12 => json!(256),
        13 => json!(""),
        14 => Value::String("x".repeat(10_000)),
        15 => json!("\u{0}é🦀\u{202e}"),
        16 => nested_array(DEEP[rng.below(DEEP.len())]),
        17 => Value::Array(vec![json!(0); 10_000]),
        18 => json!({}),
        19 => json!([]),
        _ => Value::String(format!("{RAW_MARKER}{}", rng.below(RAW_TOKENS.len()))),
    }
}

/// `[[[…[0]…]]]`, `depth` arrays deep; built bottom-up so that no recursion is needed.
fn nested_array(depth: usize) -> Value {
    (0..depth).fold(json!(0), |inner, _| Value::Array(vec![inner]))
}

/// The number plus or minus one, in the same representation (an integer stays an integer
/// where it can).
fn nudged(old: &Value, rng: &mut SplitMix64) -> Value {
    let up = rng.below(2) == 0;
    if let Some(i) = old.as_i64() {
        let n = if up { i.checked_add(1) } else { i.checked_sub(1) };
        return n.map_or_else(|| json!(i as f64 + if up { 1.0 } else { -1.0 }), |n| json!(n));
    }
    if let Some(u) = old.as_u64() {
        // Above i64::MAX: going up past u64::MAX becomes a float.
        return if up { u.checked_add(1).map_or(json!(u as f64 + 1.0), |n| json!(n)) } else { json!(u - 1) };
    }
    let f = old.as_f64().unwrap_or(0.0);
    json!(if up { f + 1.0 } else { f - 1.0 })
}

/// Applies `edit` to a random array of the region with at least `min_len` elements.
fn edit_array(
    doc: &mut Value,
    rng: &mut SplitMix64,
    min_len: usize,
    edit: fn(&mut Vec<Value>, &mut SplitMix64),
) -> bool {
    let long_enough: fn(&Value) -> bool = match min_len {
        0 | 1 => |v| v.as_array().is_some_and(|a| !a.is_empty()),
        _ => |v| v.as_array().is_some_and(|a| a.len() >= 2),
    };
    match pick_value(doc, rng, long_enough) {
        Some(Value::Array(items)) => {
            edit(items, rng);
            true
        }
        _ => false,
    }
}

fn delete_element(items: &mut Vec<Value>, rng: &mut SplitMix64) {
    items.remove(rng.below(items.len()));
}

fn duplicate_element(items: &mut Vec<Value>, rng: &mut SplitMix64) {
    let i = rng.below(items.len());
    let copy = items[i].clone();
    items.insert(rng.below(items.len() + 1), copy);
}

// `Vec` like the other array edits: they share one function-pointer type.
#[allow(clippy::ptr_arg)]
fn swap_elements(items: &mut Vec<Value>, rng: &mut SplitMix64) {
    let (i, j) = (rng.below(items.len()), rng.below(items.len()));
    items.swap(i, j);
}

fn move_element(items: &mut Vec<Value>, rng: &mut SplitMix64) {
    let item = items.remove(rng.below(items.len()));
    items.insert(rng.below(items.len() + 1), item);
}

fn delete_key(doc: &mut Value, rng: &mut SplitMix64) -> bool {
    match pick_value(doc, rng, |v| v.as_object().is_some_and(|o| !o.is_empty())) {
        Some(Value::Object(map)) => {
            let i = rng.below(map.len());
            let key = map.keys().nth(i).cloned().unwrap_or_default();
            map.shift_remove(&key);
            true
        }
        _ => false,
    }
}

/// Adds (or overwrites) a key: usually one the format uses elsewhere, sometimes an unknown
/// one; its value is any value of any seed log, so entries, setups and coordinates turn up
/// where they do not belong.
fn add_key(doc: &mut Value, corpus: &Corpus, rng: &mut SplitMix64) -> bool {
    let key = if rng.below(8) == 0 { format!("fuzz_{}", rng.below(100)) } else { pick(&corpus.keys, rng) };
    let value = corpus_value(corpus, rng);
    match pick_value(doc, rng, Value::is_object) {
        Some(Value::Object(map)) => {
            insert_at(map, rng, key, value);
            true
        }
        _ => false,
    }
}

/// Inserts `key` at a random position of the object (order matters to `preserve_order`
/// readers and to which error is reported first).
fn insert_at(map: &mut Map<String, Value>, rng: &mut SplitMix64, key: String, value: Value) {
    let at = rng.below(map.len() + 1);
    let tail: Vec<(String, Value)> = {
        let keys: Vec<String> = map.keys().skip(at).cloned().collect();
        keys.into_iter().filter_map(|k| map.shift_remove(&k).map(|v| (k, v))).collect()
    };
    map.insert(key, value);
    map.extend(tail);
}

/// A copy of a uniformly chosen value of a uniformly chosen seed log.
fn corpus_value(corpus: &Corpus, rng: &mut SplitMix64) -> Value {
    let log = &corpus.logs[rng.below(corpus.logs.len())].log;
    let n = count(log, |_| true);
    nth(log, &mut rng.below(n)).cloned().unwrap_or(Value::Null)
}

/// Read-only twin of [`nth_mut`] over every value.
fn nth<'a>(v: &'a Value, n: &mut usize) -> Option<&'a Value> {
    if *n == 0 {
        return Some(v);
    }
    *n -= 1;
    match v {
        Value::Array(a) => a.iter().find_map(|x| nth(x, n)),
        Value::Object(o) => o.values().find_map(|x| nth(x, n)),
        _ => None,
    }
}

fn entries_mut(doc: &mut Value) -> Option<&mut Vec<Value>> {
    doc.get_mut("entries").and_then(Value::as_array_mut)
}

fn truncate_entries(doc: &mut Value, rng: &mut SplitMix64) -> bool {
    let Some(entries) = entries_mut(doc) else {
        return false;
    };
    entries.truncate(rng.below(entries.len() + 1));
    true
}

/// Inserts a run of up to 20 entries of a seed log at a random position, or (one time in
/// three) replaces everything from that position on by the other log's entries from a random
/// point: a game continued with another game's moves.
fn splice_entries(doc: &mut Value, corpus: &Corpus, rng: &mut SplitMix64) -> bool {
    let other = &corpus.logs[rng.below(corpus.logs.len())].log;
    let Some(source) = other.get("entries").and_then(Value::as_array) else {
        return false;
    };
    let Some(entries) = entries_mut(doc) else {
        return false;
    };
    let at = rng.below(entries.len() + 1);
    let from = rng.below(source.len() + 1);
    if rng.below(3) == 0 {
        entries.truncate(at);
        entries.extend_from_slice(&source[from..]);
    } else {
        let to = (from + 1 + rng.below(20)).min(source.len());
        entries.splice(at..at, source[from..to].iter().cloned());
    }
    true
}

fn pick(words: &[String], rng: &mut SplitMix64) -> String {
    if words.is_empty() {
        return String::new();
    }
    words[rng.below(words.len())].clone()
}

// ---------------------------------------------------------------------------------------------
// Byte-level operators and serialization
// ---------------------------------------------------------------------------------------------

/// Bytes that matter to a JSON parser, inserted half of the time instead of random bytes.
const JSON_BYTES: &[u8] = b"{}[]\",:0123456789-+.eE \t\n\\/untrfalse\x00\x7f\xc3\xff";

fn textual(bytes: &mut Vec<u8>, op: Operator, rng: &mut SplitMix64) {
    match op {
        Operator::FlipBit if !bytes.is_empty() => {
            let i = rng.below(bytes.len());
            bytes[i] ^= 1 << rng.below(8);
        }
        Operator::InsertBytes | Operator::FlipBit => {
            let at = rng.below(bytes.len() + 1);
            let fresh: Vec<u8> = (0..1 + rng.below(8)).map(|_| random_byte(rng)).collect();
            bytes.splice(at..at, fresh);
        }
        Operator::DeleteBytes if !bytes.is_empty() => {
            let at = rng.below(bytes.len());
            let len = (1 + rng.below(16)).min(bytes.len() - at);
            bytes.drain(at..at + len);
        }
        Operator::TruncateBytes => bytes.truncate(rng.below(bytes.len() + 1)),
        _ => {}
    }
}

fn random_byte(rng: &mut SplitMix64) -> u8 {
    if rng.below(2) == 0 {
        JSON_BYTES[rng.below(JSON_BYTES.len())]
    } else {
        (rng.next_u64() & 0xFF) as u8
    }
}

/// The log as JSON text, with every raw-token marker replaced by its token.
pub fn serialize(tree: &Value, pretty: bool) -> Vec<u8> {
    // Writing a `Value` to memory cannot fail: its keys are strings and its numbers finite.
    let bytes = if pretty { serde_json::to_vec_pretty(tree) } else { serde_json::to_vec(tree) }.unwrap_or_default();
    splice_raw_tokens(bytes)
}

/// Replaces each serialized marker string `"\u0001raw:N"` by `RAW_TOKENS[N]`.
fn splice_raw_tokens(bytes: Vec<u8>) -> Vec<u8> {
    const MARKER: &[u8] = b"\"\\u0001raw:";
    if !bytes.windows(MARKER.len()).any(|w| w == MARKER) {
        return bytes;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(MARKER) {
            let digits = &bytes[i + MARKER.len()..];
            let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
            let index = std::str::from_utf8(&digits[..n]).ok().and_then(|s| s.parse::<usize>().ok());
            if let (Some(token), Some(b'"')) = (index.and_then(|k| RAW_TOKENS.get(k)), digits.get(n)) {
                out.extend_from_slice(token.as_bytes());
                i += MARKER.len() + n + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::SeedLog;

    fn tiny_corpus() -> Corpus {
        let log = json!({"format": "caverna-log/1", "setup": {"players": [{"name": "A"}], "seed": 1},
            "entries": [{"type": "place", "player": 0, "space": "logging", "actions": []},
                        {"type": "place", "player": 0, "space": "supplies"}]});
        Corpus::from_logs(vec![SeedLog { name: "tiny".into(), log }]).expect("one log")
    }

    #[test]
    fn raw_tokens_replace_their_markers() {
        let tree = json!({"a": format!("{RAW_MARKER}0"), "b": [format!("{RAW_MARKER}5"), "raw:1"]});
        assert_eq!(String::from_utf8_lossy(&serialize(&tree, false)), r#"{"a":1e400,"b":[-0,"raw:1"]}"#);
    }

    #[test]
    fn nudged_numbers_stay_numbers_and_move_by_one() {
        let mut rng = SplitMix64::new(3);
        for v in [json!(0), json!(-5), json!(u64::MAX), json!(i64::MIN), json!(2.5)] {
            let n = nudged(&v, &mut rng);
            assert!(n.is_number(), "{v} → {n}");
            let (a, b) = (v.as_f64().unwrap_or(0.0), n.as_f64().unwrap_or(0.0));
            assert!((a - b).abs() <= 1.0 + a.abs() * 1e-15, "{v} → {n}");
        }
    }

    #[test]
    fn nested_arrays_have_the_requested_depth() {
        let mut v = &nested_array(5);
        let mut depth = 0;
        while let Some(inner) = v.as_array().and_then(|a| a.first()) {
            depth += 1;
            v = inner;
        }
        assert_eq!(depth, 5);
    }

    #[test]
    fn every_operator_is_drawn_and_listed_in_order() {
        for (i, op) in Operator::ALL.iter().enumerate() {
            assert_eq!(op.index(), i);
        }
        let mut rng = SplitMix64::new(9);
        let mut seen = [false; Operator::ALL.len()];
        (0..10_000).for_each(|_| seen[draw_operator(&mut rng).index()] = true);
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn other_type_changes_the_type() {
        let corpus = tiny_corpus();
        let mut rng = SplitMix64::new(5);
        for old in [json!(null), json!(true), json!(1), json!("a"), json!([1]), json!({"a": 1})] {
            for _ in 0..50 {
                let new = other_type(&old, &corpus, &mut rng);
                assert_ne!(std::mem::discriminant(&new), std::mem::discriminant(&old), "{old} → {new}");
            }
        }
    }

    #[test]
    fn insert_at_keeps_the_other_keys_in_order() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..20 {
            let mut map = Map::new();
            for k in ["a", "b", "c"] {
                map.insert(k.into(), json!(0));
            }
            insert_at(&mut map, &mut rng, "z".into(), json!(1));
            let keys: String = map.keys().filter(|k| *k != "z").map(String::as_str).collect();
            assert_eq!(keys, "abc");
            assert_eq!(map.len(), 4);
        }
    }

    #[test]
    fn every_case_of_a_tiny_corpus_is_generated() {
        let corpus = tiny_corpus();
        for i in 0..2_000 {
            let case = generate(&corpus, 7, i);
            assert!((1..=MAX_OPERATORS).contains(&case.operators.len()));
        }
    }
}
