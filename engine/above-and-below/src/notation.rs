//! The log's syntax (`docs/log-format-above-and-below.md`): serde types for the envelope, the setup, the catalogue,
//! the board and every entry, with unknown fields refused at every level (`E_UNKNOWN_FIELD`)
//! and closed vocabularies as enums (`E_UNKNOWN_ID`). Nothing here is a rule: the setup is
//! validated by [`crate::setup`] and entries are applied by [`crate::rules`].
//!
//! Dice are read as `i64` so that an absurd value is refused by the rule that owns it
//! (`E_DIE`, `E_CAT_ROLL`) and not as a malformed number.
//!
//! The tagged enums and the structs that hold them are declared through the `tag_first`
//! module's macros, which also give each the tag-first reading of the single pass from the same
//! field list; a field marked `=> "tag_first"` holds tagged values.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::ids::{Good, Item, Skill, Trait};
use crate::tag_first::{tag_first, tag_first_struct, tagged_enum};

/// `meta`: optional, every field optional (the same for every game, see [`chronicle_game::Meta`]).
pub use chronicle_game::Meta;

/// `claimed`: the scores recorded at the table, in seat order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claimed {
    pub scores: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerNotation {
    pub name: String,
}

/// `setup.random`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RandomMode {
    #[default]
    Explicit,
    Seeded,
}

/// `setup`, unvalidated. `catalogue` and `board` are a string or an object, read by
/// [`crate::setup`] so that each shape keeps its own error. The catalogue, most of a log's
/// bytes, is kept as its raw JSON text and read once, straight into its typed form. The single
/// pass (module `single_pass`) reads it typed in the same scan instead (`C` is then the
/// catalogue object, which it needs; `B` is then its reading of the board, see
/// [`crate::board::BoardSetting`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "C: Deserialize<'de>, B: Deserialize<'de>"))]
pub struct SetupNotation<C = Box<RawValue>, B = Value> {
    pub players: Vec<PlayerNotation>,
    pub catalogue: C,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<B>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_houses: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub star_houses: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house_row: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outpost_row: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub villager_row: Option<Vec<String>>,
}

// ---------------------------------------------------------------------------------------------
// Catalogue (docs/rules/above-and-below.md B)

tag_first_struct! {
    /// The catalogue object.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct CatalogueNotation {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub extends: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub source: Option<String>,
        #[serde(default)]
        pub cards: Vec<CardNotation> => "tag_first",
        #[serde(default)]
        pub villagers: Vec<VillagerNotation>,
        #[serde(default)]
        pub caves: Vec<CaveNotation>,
    }
}

/// B.2: the kind of a house or outpost card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Starting,
    Basic,
    Key,
    Star,
    Outpost,
}

impl CardKind {
    pub const fn id(self) -> &'static str {
        match self {
            CardKind::Starting => "starting",
            CardKind::Basic => "basic",
            CardKind::Key => "key",
            CardKind::Star => "star",
            CardKind::Outpost => "outpost",
        }
    }
}

tag_first_struct! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct CardNotation {
        pub id: String,
        pub kind: CardKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub cost: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub effects: Option<Vec<Effect>> => "tag_first",
    }
}

/// A `vp_per` counter (B.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counter {
    Villager,
    House,
    Outpost,
    EmptyCave,
    Item(Item),
}

impl Counter {
    pub fn id(self) -> &'static str {
        match self {
            Counter::Villager => "villager",
            Counter::House => "house",
            Counter::Outpost => "outpost",
            Counter::EmptyCave => "empty_cave",
            Counter::Item(i) => i.id(),
        }
    }
}

impl Serialize for Counter {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Counter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Counter, D::Error> {
        let id = String::deserialize(d)?;
        match id.as_str() {
            "villager" => Ok(Counter::Villager),
            "house" => Ok(Counter::House),
            "outpost" => Ok(Counter::Outpost),
            "empty_cave" => Ok(Counter::EmptyCave),
            other => Item::from_id(other).map(Counter::Item).ok_or_else(|| {
                serde::de::Error::custom(format!("unknown variant `{other}`, expected a vp_per counter"))
            }),
        }
    }
}

tagged_enum! {
    /// An effect of the closed vocabulary of B.3.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Effect {
        Beds { n: u32 },
        Vp { n: i32 },
        VpPer { per: Vec<Counter>, n: i32 },
        IncomeCoins { n: u32 },
        IncomePotions { n: u32 },
        IncomePerStored { goods: Vec<Good>, n: u32 },
        GoodsOnce { good: Good, n: u32 },
        GoodsRefill { good: Good },
        PotionsOnce { n: u32 },
        ReputationOnce { n: i32 },
        TrainToReady,
        CoinOnBuild { n: u32 },
        CoinOnExplore { n: u32 },
        Rerolls { n: u32 },
        CiderAsCoin,
        PotionAsCoin,
        Custom { text: String },
    }
}

/// B.5: the kind of a villager.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VillagerKind {
    Starting,
    Regular,
    Special,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VillagerNotation {
    pub id: String,
    pub kind: VillagerKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skills: Option<Vec<Skill>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explore: Option<Vec<(i64, u32)>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traits: Option<Vec<Trait>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaveNotation {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paragraphs: Option<Vec<u32>>,
}

// ---------------------------------------------------------------------------------------------
// Board (docs/rules/above-and-below.md A.8)

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardNotation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<StorageNotation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reputation: Option<ReputationNotation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub train_costs: Option<Vec<u32>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageNotation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_income: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spaces: Option<Vec<(u32, u32)>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReputationNotation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<Vec<(i32, i32)>>,
}

// ---------------------------------------------------------------------------------------------
// Entries

tagged_enum! {
    /// One entry of `entries`.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Entry {
        Turn {
            player: u64,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            free: Vec<Free> => "tag_first",
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            cat_fails: Vec<CatDie>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            action: Option<Action> => "tag_first",
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            custom: Vec<TurnCredit>,
        },
        Pass {
            player: u64,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            free: Vec<Free> => "tag_first",
        },
        Store {
            player: u64,
            goods: Vec<Good>,
        },
        RoundEnd {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            villagers: Option<Vec<String>>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            rest: Vec<Rest>,
        },
        Declare {
            player: u64,
            card: String,
            vp: i32,
        },
    }
}

impl Entry {
    /// The seat an entry names, when it names one.
    pub fn player(&self) -> Option<u64> {
        match self {
            Entry::Turn { player, .. }
            | Entry::Pass { player, .. }
            | Entry::Store { player, .. }
            | Entry::Declare { player, .. } => Some(*player),
            Entry::RoundEnd { .. } => None,
        }
    }
}

/// A Cave Cat's obedience die (D.10). `die` may be omitted in seeded mode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatDie {
    pub villager: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<i64>,
}

/// A lantern die or a reroll, for one villager. `die` may be omitted in seeded mode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    pub villager: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<i64>,
}

/// The payment object of D.5.3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Payment {
    #[serde(default)]
    pub coins: u32,
    #[serde(default)]
    pub cider: u32,
    #[serde(default)]
    pub potions: u32,
}

/// A trusted discount from a card's `custom` effect (B.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Discount {
    pub card: String,
    pub discount: u32,
}

/// A trusted custom credit outside an action (B.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnCredit {
    pub card: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coins: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goods: Option<Vec<Good>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub potions: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cider: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reputation: Option<i32>,
}

tagged_enum! {
    /// The one action of a turn (D.2.2).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Action {
        Explore {
            party: Vec<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            cat_rolls: Vec<CatDie>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cave: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            die: Option<i64>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            rolls: Option<Vec<Roll>>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            rerolls: Vec<Roll>,
            step: Box<Step> => "tag_first",
        },
        Harvest {
            villagers: Vec<String>,
            #[serde(default)]
            take: Vec<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            cat_rolls: Vec<CatDie>,
        },
        Build {
            villager: String,
            card: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cave: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pay: Option<Payment>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            refill: Option<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            custom: Vec<Discount>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            cat_rolls: Vec<CatDie>,
        },
        Train {
            villager: String,
            slot: i64,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            recruit: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pay: Option<Payment>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            custom: Vec<Discount>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            cat_rolls: Vec<CatDie>,
        },
        Labor {
            villagers: Vec<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            cat_rolls: Vec<CatDie>,
        },
    }
}

/// D.8.3: which row a refresh replaces. Any other row name (the key, star or villager row, or
/// a misspelling) is kept as written, so that the rule answers `E_REFRESH` ("house or outpost
/// row only", G.1) instead of the parser answering with a generic code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowName {
    Houses,
    Outposts,
    Other(String),
}

impl RowName {
    pub fn id(&self) -> &str {
        match self {
            RowName::Houses => "houses",
            RowName::Outposts => "outposts",
            RowName::Other(s) => s,
        }
    }
}

impl Serialize for RowName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for RowName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(match s.as_str() {
            "houses" => RowName::Houses,
            "outposts" => RowName::Outposts,
            _ => RowName::Other(s),
        })
    }
}

tagged_enum! {
    /// A free action (D.8).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Free {
        Offer {
            #[serde(default)]
            item: Option<Item>,
        },
        Buy {
            from: u64,
            price: i64,
        },
        Refresh {
            row: RowName,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            drawn: Option<Vec<String>>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pay: Option<Payment>,
        },
        Store {
            goods: Vec<Good>,
        },
    }
}

tag_first_struct! {
    /// One paragraph of an exploration (E.3–E.9).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Step {
        pub paragraph: u32,
        pub option: u32,
        pub thresholds: Vec<u32>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub rerolls: Vec<Roll>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub bonus: Vec<Bonus> => "tag_first",
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub efforts: Vec<String>,
        /// Required, `null` for failure.
        #[serde(deserialize_with = "nullable")]
        pub reached: Option<u32>,
        pub outcome: Vec<Outcome> => "tag_first",
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub then: Option<Box<Step>> => "tag_first",
    }
}

/// A required field that may be `null`.
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

tagged_enum! {
    /// An option's bonus lanterns (E.7).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Bonus {
        PerSkill {
            skill: Skill,
            n: u32,
        },
        IfHave {
            item: Item,
            n: u32,
        },
        PerHave {
            item: Item,
            n: u32,
        },
        IfTag {
            tag: String,
            n: u32,
        },
        Pay {
            coins: u32,
            n: u32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            with: Option<Payment>,
        },
        Custom {
            n: u32,
            text: String,
        },
        Card {
            card: String,
            n: u32,
        },
    }
}

/// E.10 `villager.from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VillagerSource {
    Row,
    Special,
}

/// E.10 `villager.which`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Which {
    Cheapest,
}

tagged_enum! {
    /// An outcome item (E.10).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "get", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Outcome {
        Coins {
            n: i64,
        },
        Pay {
            n: u32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            with: Option<Payment>,
        },
        LoseCoins {
            n: u32,
        },
        Good {
            good: Good,
            n: u32,
        },
        Potion {
            n: u32,
        },
        Cider {
            n: u32,
        },
        Reputation {
            n: i64,
        },
        Villager {
            villager: String,
            from: VillagerSource,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            which: Option<Which>,
        },
        Cave {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            card: Option<String>,
        },
        Card {
            card: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            max_cost: Option<u32>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cave: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            refill: Option<String>,
        },
        Injure {
            villagers: Vec<String>,
        },
        LoseGood {
            item: Item,
            n: u32,
        },
        LoseVillager {
            villager: String,
        },
        Nothing,
        Custom {
            text: String,
        },
    }
}

impl Outcome {
    /// Whether a failed step's outcome may hold this item (E.10 "penalty" column).
    pub fn is_penalty(&self) -> bool {
        match self {
            Outcome::Pay { .. }
            | Outcome::LoseCoins { .. }
            | Outcome::Injure { .. }
            | Outcome::LoseGood { .. }
            | Outcome::LoseVillager { .. }
            | Outcome::Nothing
            | Outcome::Custom { .. } => true,
            Outcome::Reputation { n } => *n < 0,
            _ => false,
        }
    }
}

/// One player's rest choices (F.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rest {
    pub player: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub potions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cider: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub beds: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub custom: Vec<BedCredit>,
}

/// Trusted extra beds from a card's `custom` effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BedCredit {
    pub card: String,
    pub beds: Vec<String>,
}
