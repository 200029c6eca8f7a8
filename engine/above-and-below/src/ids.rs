//! The closed id vocabularies of `docs/rules/above-and-below.md` A.1–A.4: goods, items, skills and traits. Each is an
//! enum, so an unknown id is refused when the log is read (`E_UNKNOWN_ID`).

use serde::{Deserialize, Serialize};

/// Whether two ids are the same text. The rules compare ids on nearly every entry (a
/// player's villagers by id, the rows' cards), and ids are short: an id of 4 to 16 bytes is
/// compared as its first and last four or eight bytes (which overlap and cover it), two
/// integer comparisons instead of a call to `memcmp`.
#[inline]
pub(crate) fn same_id(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    match a.len() {
        8..=16 => a.first_chunk::<8>() == b.first_chunk::<8>() && a.last_chunk::<8>() == b.last_chunk::<8>(),
        4..=7 => a.first_chunk::<4>() == b.first_chunk::<4>() && a.last_chunk::<4>() == b.last_chunk::<4>(),
        _ => a == b,
    }
}

/// A goods type (A.1). The class printed on the board has no rule effect, so it is not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Good {
    Fruit,
    Fish,
    Mushroom,
    Pot,
    Rope,
    Paper,
    Ore,
    Amethyst,
}

impl Good {
    pub const ALL: [Good; 8] =
        [Good::Fruit, Good::Fish, Good::Mushroom, Good::Pot, Good::Rope, Good::Paper, Good::Ore, Good::Amethyst];

    pub const fn id(self) -> &'static str {
        match self {
            Good::Fruit => "fruit",
            Good::Fish => "fish",
            Good::Mushroom => "mushroom",
            Good::Pot => "pot",
            Good::Rope => "rope",
            Good::Paper => "paper",
            Good::Ore => "ore",
            Good::Amethyst => "amethyst",
        }
    }

    /// The tokens printed (A.1), for the `W_SUPPLY` warning only (H.4).
    pub const fn tokens(self) -> u32 {
        match self {
            Good::Fruit | Good::Fish | Good::Mushroom => 12,
            Good::Pot | Good::Rope | Good::Paper => 10,
            Good::Ore => 8,
            Good::Amethyst => 7,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Anything that may lie in a reserve or on a sale spot: a goods token, a potion or a cider
/// (A.1–A.2, D.8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Item {
    Good(Good),
    Other(Token),
}

/// The two non-goods tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    Potion,
    Cider,
}

impl Item {
    /// The item of an id (a goods id, `potion` or `cider`).
    pub fn from_id(id: &str) -> Option<Item> {
        match id {
            "potion" => Some(Item::Other(Token::Potion)),
            "cider" => Some(Item::Other(Token::Cider)),
            _ => Good::ALL.iter().copied().find(|g| g.id() == id).map(Item::Good),
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Item::Good(g) => g.id(),
            Item::Other(Token::Potion) => "potion",
            Item::Other(Token::Cider) => "cider",
        }
    }
}

/// A villager skill (A.4). A `_plus` skill includes the plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    Hammer,
    Quill,
    HammerPlus,
    QuillPlus,
}

impl Skill {
    /// Whether a villager with `self` counts as having `wanted` (`hammer_plus` counts as
    /// `hammer`, E.7 `per_skill`).
    pub fn satisfies(self, wanted: Skill) -> bool {
        self == wanted
            || matches!((self, wanted), (Skill::HammerPlus, Skill::Hammer) | (Skill::QuillPlus, Skill::Quill))
    }
}

/// A villager trait (A.4, B.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    CaveCat,
    BadReputation,
    GoodReputation,
    Mechanical,
}

/// A villager's state (A.4). `in_cave` exists only inside an exploration and is kept there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VState {
    Ready,
    Exhausted,
    Injured,
}

impl VState {
    pub const fn id(self) -> &'static str {
        match self {
            VState::Ready => "ready",
            VState::Exhausted => "exhausted",
            VState::Injured => "injured",
        }
    }
}

impl Serialize for Item {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        let id = String::deserialize(d)?;
        Item::from_id(&id).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown variant `{id}`, expected a goods id, `potion` or `cider`"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ids are the same exactly when their texts are: for every length 0–20, an id against
    /// itself, against the id that differs in any one byte, and against ids one byte shorter
    /// or longer.
    #[test]
    fn same_id_is_text_equality() {
        let text: String = ('a'..='z').collect();
        for n in 0..=20 {
            let id = &text[..n];
            // The same text in another buffer: the comparison is of texts, not of places.
            let copy: String = id.chars().collect();
            assert!(same_id(id, id) && same_id(id, &copy), "{id}");
            for at in 0..n {
                let mut other = id.as_bytes().to_vec();
                other[at] = b'_';
                let other = String::from_utf8(other).expect("ascii");
                assert!(!same_id(id, &other) && !same_id(&other, id), "{id} {other}");
            }
            assert!(!same_id(id, &text[..n + 1]) && !same_id(&text[..n + 1], id), "{id}");
        }
    }
}
