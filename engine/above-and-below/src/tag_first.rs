//! A fast reading of the log's tagged objects whose tag comes first, as every writer of this
//! project puts it (the simulator, the recorder, serde's own serializer).
//!
//! The entries, actions, free actions, bonuses, outcomes and card effects are internally tagged
//! enums: serde reads one by buffering the whole object (its private `Content` tree) until it
//! has found the tag, then reads the variant from the buffer. When the tag is the first member
//! nothing needs buffering: the variant's fields are read straight from the text.
//! [`ReadTagFirst`] is that reading. It refuses anything else (a tag further on, a repeated
//! member, a key with escapes, a unit variant with members): the caller then reads the whole
//! log the usual way, so every result other than a success — and every error message — is the
//! usual reading's.
//!
//! The enums and the structs that hold them are declared through [`tagged_enum!`] and
//! [`tag_first_struct!`], which write the type exactly as given and, from the same field list,
//! its tag-first reading: one declaration, so the two readings cannot drift apart.

use std::marker::PhantomData;

use serde::de::{Error, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A type with a tag-first reading: the tagged enums, the structs holding them, and lists,
/// options and boxes of those.
pub(crate) trait ReadTagFirst: Sized {
    fn read_tag_first<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// A `T` read by its tag-first reading.
pub(crate) struct TagFirst<T>(pub(crate) T);

impl<'de, T: ReadTagFirst> Deserialize<'de> for TagFirst<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::read_tag_first(d).map(TagFirst)
    }
}

/// Reads a field by its tag-first reading (the `=> "tag_first"` of the macros' field lists).
pub(crate) fn tag_first<'de, D: Deserializer<'de>, T: ReadTagFirst>(d: D) -> Result<T, D::Error> {
    T::read_tag_first(d)
}

/// Checks that an object's first member is its tag (`tag`), leaving the tag's value next.
pub(crate) fn tag_is_first<'de, A: MapAccess<'de>>(map: &mut A, tag: &str) -> Result<(), A::Error> {
    if map.next_key::<&'de str>()? == Some(tag) {
        Ok(())
    } else {
        Err(A::Error::custom("the tag is not the first member"))
    }
}

struct SeqVisitor<T>(PhantomData<T>);

impl<'de, T: ReadTagFirst> Visitor<'de> for SeqVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::new();
        while let Some(TagFirst(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(items)
    }
}

/// A list read as `Vec<T>` is (a JSON array), each item tag first.
impl<T: ReadTagFirst> ReadTagFirst for Vec<T> {
    fn read_tag_first<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(SeqVisitor(PhantomData))
    }
}

/// `null` or the value tag first, as `Option<T>` is read.
impl<T: ReadTagFirst> ReadTagFirst for Option<T> {
    fn read_tag_first<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<TagFirst<T>>::deserialize(d).map(|o| o.map(|t| t.0))
    }
}

impl<T: ReadTagFirst> ReadTagFirst for Box<T> {
    fn read_tag_first<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::read_tag_first(d).map(Box::new)
    }
}

/// Declares an internally tagged enum (`rename_all = "snake_case"`, `deny_unknown_fields`)
/// exactly as written, and its [`ReadTagFirst`] reading: the tag as the first member, then the
/// variant's fields read from the rest of the object into a struct with the variant's own
/// fields and attributes. A field followed by `=> "f"` is read there with
/// `deserialize_with = "f"` (`"tag_first"` for a field holding tagged values).
macro_rules! tagged_enum {
    (
        $(#[doc = $doc:literal])*
        #[derive $derive:tt]
        #[serde(tag = $tag:literal, rename_all = "snake_case", deny_unknown_fields)]
        $vis:vis enum $name:ident {
            $(
                $variant:ident $({
                    $( $(#[$fattr:meta])* $field:ident : $fty:ty $(=> $with:literal)? ),* $(,)?
                })?
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive $derive]
        #[serde(tag = $tag, rename_all = "snake_case", deny_unknown_fields)]
        $vis enum $name {
            $( $variant $({ $( $(#[$fattr])* $field: $fty ),* })? ),*
        }

        impl $crate::tag_first::ReadTagFirst for $name {
            fn read_tag_first<'de, D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[derive(::serde::Deserialize)]
                #[serde(rename_all = "snake_case")]
                enum Kind {
                    $($variant),*
                }

                struct TagFirstVisitor;

                impl<'de> ::serde::de::Visitor<'de> for TagFirstVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        write!(f, "an object whose first member is \"{}\"", $tag)
                    }

                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                        $crate::tag_first::tag_is_first(&mut map, $tag)?;
                        let kind: Kind = map.next_value()?;
                        let rest = ::serde::de::value::MapAccessDeserializer::new(map);
                        Ok(match kind {
                            $(Kind::$variant => {
                                #[derive(::serde::Deserialize)]
                                #[serde(deny_unknown_fields)]
                                struct Body {
                                    $($( $(#[$fattr])* $(#[serde(deserialize_with = $with)])? $field: $fty, )*)?
                                }
                                let Body { $($($field),*)? } = ::serde::Deserialize::deserialize(rest)?;
                                $name::$variant $({ $($field),* })?
                            })*
                        })
                    }
                }

                d.deserialize_map(TagFirstVisitor)
            }
        }
    };
}

/// Declares a struct (`deny_unknown_fields`) that holds tagged values exactly as written, and
/// its [`ReadTagFirst`] reading: the same fields and attributes, those followed by `=> "f"` read
/// with `deserialize_with = "f"` (see [`tagged_enum!`]).
macro_rules! tag_first_struct {
    (
        $(#[doc = $doc:literal])*
        #[derive $derive:tt]
        #[serde(deny_unknown_fields)]
        $vis:vis struct $name:ident {
            $( $(#[$fattr:meta])* $fvis:vis $field:ident : $fty:ty $(=> $with:literal)? ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive $derive]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            $( $(#[$fattr])* $fvis $field: $fty ),*
        }

        impl $crate::tag_first::ReadTagFirst for $name {
            fn read_tag_first<'de, D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[derive(::serde::Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Twin {
                    $( $(#[$fattr])* $(#[serde(deserialize_with = $with)])? $field: $fty, )*
                }
                let Twin { $($field),* } = ::serde::Deserialize::deserialize(d)?;
                Ok($name { $($field),* })
            }
        }
    };
}

pub(crate) use {tag_first_struct, tagged_enum};
