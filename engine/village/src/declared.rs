//! Lists a log's component data declares, read with their bound (`components.rs`: the travel
//! map's cities and paths, the chronicle's spaces, the graves).
//!
//! A list over its bound is refused by [`crate::components::validate`] with `log_too_large`,
//! whatever else it holds; reading it whole first would make that refusal cost as much as the
//! list is long, once per reading of the log. So only the first `MAX` items are kept. The
//! rest are still read and checked as the notation reads them (a malformed item past the bound
//! is refused as before) and counted, but dropped at once: the count the refusal names is
//! exact, and no reading holds more than `MAX` items.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A declared list (`C`: a `Vec` or a map by id) of which at most `MAX` items are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared<C, const MAX: usize> {
    items: C,
    declared: usize,
}

impl<C, const MAX: usize> Declared<C, MAX> {
    /// How many items the log declares (distinct ids, for a map), kept or not.
    pub fn declared(&self) -> usize {
        self.declared
    }

    /// The items kept: all of them when [`Declared::declared`] is at most `MAX`.
    pub fn items(&self) -> &C {
        &self.items
    }
}

impl<T, const MAX: usize> From<Vec<T>> for Declared<Vec<T>, MAX> {
    fn from(items: Vec<T>) -> Self {
        Declared { declared: items.len(), items }
    }
}

impl<V, const MAX: usize> From<BTreeMap<String, V>> for Declared<BTreeMap<String, V>, MAX> {
    fn from(items: BTreeMap<String, V>) -> Self {
        Declared { declared: items.len(), items }
    }
}

impl<C: Serialize, const MAX: usize> Serialize for Declared<C, MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(s)
    }
}

/// The list's items, each read as `T` reads; past the bound read, counted and dropped.
impl<'de, T: Deserialize<'de>, const MAX: usize> Deserialize<'de> for Declared<Vec<T>, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct List<T, const MAX: usize>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>, const MAX: usize> Visitor<'de> for List<T, MAX> {
            type Value = Declared<Vec<T>, MAX>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                let mut declared = 0;
                // Bounded by the log's length: each item is at least one byte of it.
                while let Some(item) = seq.next_element::<T>()? {
                    declared += 1;
                    if items.len() < MAX {
                        items.push(item);
                    }
                }
                Ok(Declared { items, declared })
            }
        }
        d.deserialize_seq(List(PhantomData))
    }
}

/// The map's members by id, a repeated id counting once (the last value, as a JSON object
/// reads); past the bound the new ids are only remembered, borrowed from the log where they
/// need no unescaping, so that the count stays one of distinct ids.
impl<'de, V: Deserialize<'de>, const MAX: usize> Deserialize<'de> for Declared<BTreeMap<String, V>, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Map<V, const MAX: usize>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>, const MAX: usize> Visitor<'de> for Map<V, MAX> {
            type Value = Declared<BTreeMap<String, V>, MAX>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut items = BTreeMap::new();
                let mut beyond: HashSet<Id<'de>> = HashSet::new();
                // Bounded by the log's length: each member is at least one byte of it.
                while let Some(Id(id)) = map.next_key::<Id<'de>>()? {
                    let value = map.next_value::<V>()?;
                    if items.len() < MAX || items.contains_key(id.as_ref()) {
                        items.insert(id.into_owned(), value);
                    } else {
                        beyond.insert(Id(id));
                    }
                }
                let declared = items.len() + beyond.len();
                Ok(Declared { items, declared })
            }
        }
        d.deserialize_map(Map(PhantomData))
    }
}

/// A member's id, borrowed from the log when it is written without escapes.
#[derive(PartialEq, Eq, Hash)]
struct Id<'de>(std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for Id<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> Visitor<'de> for Text {
            type Value = Id<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Id<'de>, E> {
                Ok(Id(s.into()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Id<'de>, E> {
                Ok(Id(s.to_owned().into()))
            }
            fn visit_string<E>(self, s: String) -> Result<Id<'de>, E> {
                Ok(Id(s.into()))
            }
        }
        d.deserialize_str(Text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Cities = Declared<BTreeMap<String, u8>, 2>;
    type Graves = Declared<Vec<String>, 2>;

    #[test]
    fn a_list_within_its_bound_is_kept_whole() {
        let g: Graves = serde_json::from_str(r#"["a", "b"]"#).unwrap();
        assert_eq!((g.declared(), g.items().len()), (2, 2));
        let c: Cities = serde_json::from_str(r#"{"x": 1, "y": 2, "x": 3}"#).unwrap();
        assert_eq!(c.declared(), 2, "a repeated id counts once");
        assert_eq!(c.items().get("x"), Some(&3), "the last value of a repeated id");
        assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"x":3,"y":2}"#);
    }

    #[test]
    fn a_list_over_its_bound_keeps_its_first_items_and_counts_the_rest() {
        let g: Graves = serde_json::from_str(r#"["a", "b", "c", "d"]"#).unwrap();
        assert_eq!((g.declared(), g.items().len()), (4, 2));
        let c: Cities = serde_json::from_str(r#"{"x": 1, "y": 2, "z": 3, "z": 4, "x": 5, "\u0077": 6}"#).unwrap();
        assert_eq!((c.declared(), c.items().len()), (4, 2), "distinct ids: x, y, z, w");
    }

    #[test]
    fn an_item_past_the_bound_is_still_read_as_the_notation_reads_it() {
        assert!(serde_json::from_str::<Graves>(r#"["a", "b", "c", 4]"#).is_err());
        assert!(serde_json::from_str::<Cities>(r#"{"x": 1, "y": 2, "z": "three"}"#).is_err());
    }
}
