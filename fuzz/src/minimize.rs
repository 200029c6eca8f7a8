//! Shrinks a failing log while it keeps failing the same way, so that a regression file
//! shows the cause rather than a whole game.
//!
//! A log that parses is shrunk structurally: runs of entries are dropped (halving the run
//! length down to one), then single values anywhere (array elements, object members). A log
//! that does not parse is shrunk by dropping byte ranges. Greedy and bounded by a number of
//! attempts; the result is a local minimum, not the smallest failing log.

use serde_json::Value;

use crate::mutate::serialize;

/// Shrinks `bytes` while `fails` holds, trying at most `budget` candidates.
pub fn minimize(bytes: &[u8], budget: usize, fails: &mut dyn FnMut(&[u8]) -> bool) -> Vec<u8> {
    let mut attempts = Attempts { left: budget, fails };
    match serde_json::from_slice::<Value>(bytes) {
        Ok(tree) if attempts.check(&serialize(&tree, false)) => {
            let tree = drop_entry_runs(tree, &mut attempts);
            serialize(&drop_values(tree, &mut attempts), false)
        }
        _ => drop_byte_ranges(bytes.to_vec(), &mut attempts),
    }
}

struct Attempts<'a> {
    left: usize,
    fails: &'a mut dyn FnMut(&[u8]) -> bool,
}

impl Attempts<'_> {
    /// Whether the candidate still fails; `false` once the budget is spent.
    fn check(&mut self, candidate: &[u8]) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        (self.fails)(candidate)
    }

    fn check_tree(&mut self, tree: &Value) -> bool {
        self.check(&serialize(tree, false))
    }
}

/// Drops runs of entries, longest runs first.
fn drop_entry_runs(mut tree: Value, attempts: &mut Attempts<'_>) -> Value {
    let len = |t: &Value| t.get("entries").and_then(Value::as_array).map_or(0, Vec::len);
    let mut run = len(&tree).div_ceil(2);
    while run >= 1 && attempts.left > 0 {
        let mut at = 0;
        while at < len(&tree) && attempts.left > 0 {
            let mut candidate = tree.clone();
            if let Some(entries) = candidate.get_mut("entries").and_then(Value::as_array_mut) {
                let end = (at + run).min(entries.len());
                entries.drain(at..end);
            }
            if attempts.check_tree(&candidate) {
                tree = candidate;
            } else {
                at += run;
            }
        }
        run /= 2;
    }
    tree
}

/// Drops single values (pre-order), keeping each drop after which the log still fails.
fn drop_values(mut tree: Value, attempts: &mut Attempts<'_>) -> Value {
    let mut n = 1; // 0 is the document itself
    while attempts.left > 0 {
        let mut candidate = tree.clone();
        match remove_nth(&mut candidate, &mut n.clone()) {
            false => break,
            true if attempts.check_tree(&candidate) => tree = candidate,
            true => n += 1,
        }
    }
    tree
}

/// Removes the `n`-th value (pre-order; the root is 0 and is never removed) from its array or
/// object. `false` when there are not that many values.
fn remove_nth(v: &mut Value, n: &mut usize) -> bool {
    match v {
        Value::Array(items) => {
            for i in 0..items.len() {
                *n -= 1;
                if *n == 0 {
                    items.remove(i);
                    return true;
                }
                if remove_nth(&mut items[i], n) {
                    return true;
                }
            }
            false
        }
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                *n -= 1;
                if *n == 0 {
                    map.shift_remove(&key);
                    return true;
                }
                if map.get_mut(&key).is_some_and(|child| remove_nth(child, n)) {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

/// Drops byte ranges, longest first.
fn drop_byte_ranges(mut bytes: Vec<u8>, attempts: &mut Attempts<'_>) -> Vec<u8> {
    let mut run = bytes.len().div_ceil(2);
    while run >= 1 && attempts.left > 0 {
        let mut at = 0;
        while at < bytes.len() && attempts.left > 0 {
            let mut candidate = bytes.clone();
            candidate.drain(at..(at + run).min(bytes.len()));
            if attempts.check(&candidate) {
                bytes = candidate;
            } else {
                at += run;
            }
        }
        run /= 2;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tree_shrinks_to_what_makes_it_fail() {
        let log =
            json!({"format": "x", "entries": [{"a": 1}, {"b": [1, 2, {"bad": true}]}, {"c": 3}], "extra": [1, 2]});
        let mut fails = |b: &[u8]| String::from_utf8_lossy(b).contains("\"bad\"");
        let small = minimize(&serialize(&log, false), 10_000, &mut fails);
        assert_eq!(String::from_utf8_lossy(&small), r#"{"entries":[{"b":[{"bad":true}]}]}"#);
    }

    #[test]
    fn bytes_shrink_when_the_log_does_not_parse() {
        let mut fails = |b: &[u8]| b.contains(&b'!');
        assert_eq!(minimize(b"{\"a\": [1, 2! 3]", 10_000, &mut fails), b"!");
    }

    #[test]
    fn the_budget_bounds_the_attempts() {
        let mut calls = 0;
        let mut fails = |_: &[u8]| {
            calls += 1;
            true
        };
        minimize(br#"{"entries": [1, 2, 3, 4, 5, 6, 7, 8]}"#, 3, &mut fails);
        assert_eq!(calls, 3);
    }
}
