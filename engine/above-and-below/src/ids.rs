//! The closed id vocabularies of `RULES.md` A.1–A.4: goods, items, skills and traits. Each is an
//! enum, so an unknown id is refused when the log is read (`E_UNKNOWN_ID`).

use serde::{Deserialize, Serialize};

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
