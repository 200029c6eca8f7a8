//! The `village-log/1` notation (`docs/log-format-village.md`): serde types for the envelope, the setup and
//! the entries, exactly as written. Nothing here is a rule; [`crate::setup`] validates the
//! setup and [`crate::rules`] the entries. Unknown fields are errors everywhere (a typo must
//! not pass silently, G.1.1).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::components::{MAX_CHRONICLE_SPACES, MAX_GRAVES, MAX_TRAVEL_CITIES, MAX_TRAVEL_PATHS};
use crate::declared::Declared;
use crate::ids::{Building, Color, Cube, Customer, Good, Item, Space};

/// `meta`: optional, every field optional (the same for every game, see [`chronicle_game::Meta`]).
pub use chronicle_game::Meta;

/// `claimed`: the totals recorded at the table, in seat order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claimed {
    pub scores: Vec<i64>,
}

/// One seat of `setup.players`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerNotation {
    pub name: String,
    pub color: Color,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_cube: Option<Cube>,
}

/// `setup.customers`: the face-up display after setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisplayNotation {
    pub stalls: Vec<Customer>,
    pub queue: Vec<Customer>,
}

/// `setup.solo`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoloNotation {
    pub carla_color: Color,
    #[serde(default)]
    pub carla_rule: CarlaRule,
}

/// Carla's cube rule (`docs/rules/village.md` F.2; the die variant, H.39).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CarlaRule {
    #[default]
    Track,
    Die,
}

/// `setup.components`: a shipped table's name or inline data.
///
/// Read by hand rather than as serde's untagged enum, which would first copy the whole value
/// into a buffer of its own and read it again: a map of thousands of cities would be read
/// twice. Any value that is neither a name nor readable inline data is refused with the message
/// the untagged reading gave, so verdicts do not depend on how this is read.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ComponentsNotation {
    Named(String),
    Inline(Box<InlineComponents>),
}

impl<'de> Deserialize<'de> for ComponentsNotation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ComponentsVisitor)
    }
}

/// What an untagged reading of [`ComponentsNotation`] says of a value it cannot read.
const NO_VARIANT: &str = "data did not match any variant of untagged enum ComponentsNotation";

struct ComponentsVisitor;

impl<'de> serde::de::Visitor<'de> for ComponentsVisitor {
    type Value = ComponentsNotation;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(NO_VARIANT)
    }
    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<ComponentsNotation, E> {
        Ok(ComponentsNotation::Named(name.to_owned()))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<ComponentsNotation, A::Error> {
        InlineComponents::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            .map(|inline| ComponentsNotation::Inline(Box::new(inline)))
            .map_err(|_: A::Error| serde::de::Error::custom(NO_VARIANT))
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<ComponentsNotation, E> {
        Err(E::custom(NO_VARIANT))
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<ComponentsNotation, E> {
        Err(E::custom(NO_VARIANT))
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<ComponentsNotation, E> {
        Err(E::custom(NO_VARIANT))
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<ComponentsNotation, E> {
        Err(E::custom(NO_VARIANT))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<ComponentsNotation, E> {
        Err(E::custom(NO_VARIANT))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<ComponentsNotation, A::Error> {
        Err(serde::de::Error::custom(NO_VARIANT))
    }
}

/// Inline component data (`docs/log-format-village.md` "Components"); every key optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineComponents {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_cards: Option<BTreeMap<String, SetupCardNotation>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life_track: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training: Option<BTreeMap<Building, u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub council_time: Option<BTreeMap<String, u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub church_grain: Option<BTreeMap<String, u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub travel: Option<TravelNotation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chronicle: Option<BTreeMap<String, Declared<Vec<String>, MAX_CHRONICLE_SPACES>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graves: Option<Declared<Vec<String>, MAX_GRAVES>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customers: Option<BTreeMap<Customer, CustomerNotation>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carla: Option<CarlaNotation>,
}

/// One setup card (M.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupCardNotation {
    pub bag: BTreeMap<Cube, u32>,
    pub spaces: BTreeMap<Space, u32>,
}

/// The travel map (M.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TravelNotation {
    pub cities: Declared<BTreeMap<String, CityNotation>, MAX_TRAVEL_CITIES>,
    pub paths: Declared<Vec<PathNotation>, MAX_TRAVEL_PATHS>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CityNotation {
    pub reward: Reward,
}

/// A city's reward (`docs/rules/village.md` A.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reward {
    Prestige,
    Cubes,
    Coin,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathNotation {
    pub between: [String; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wagons: Option<u32>,
    #[serde(default)]
    pub cubes: BTreeMap<Cube, u32>,
}

/// A customer tile's printed data (M.9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomerNotation {
    pub wants: BTreeMap<Item, u32>,
    pub points: u32,
}

/// Carla's board (M.11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarlaNotation {
    pub order: Vec<Space>,
    pub boxes: u32,
    pub fate: FateBoxesNotation,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FateBoxesNotation {
    pub top: Vec<u32>,
    pub bottom: Vec<u32>,
}

/// `setup`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupNotation {
    pub players: Vec<PlayerNotation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compensation: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customers: Option<DisplayNotation>,
    pub components: ComponentsNotation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solo: Option<SoloNotation>,
}

/// A player in an entry that Carla may also stand for (`sale`, `pass`, mass draws).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Seat(usize),
    Carla,
}

impl Serialize for Who {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Who::Seat(p) => s.serialize_u64(*p as u64),
            Who::Carla => s.serialize_str("carla"),
        }
    }
}

impl<'de> Deserialize<'de> for Who {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u64),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(Who::Seat(usize::try_from(n).unwrap_or(usize::MAX))),
            Raw::S(s) if s == "carla" => Ok(Who::Carla),
            Raw::S(s) => {
                Err(serde::de::Error::custom(format!("unknown variant `{s}`: a player is a seat number or \"carla\"")))
            }
        }
    }
}

/// A member reference (`docs/log-format-village.md` "Member references"): generation and location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberRef {
    pub gen: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// `take` of a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Take {
    pub space: Space,
    pub cube: Cube,
}

/// `well` of a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WellNotation {
    pub color: Cube,
    #[serde(default)]
    pub coins: u32,
}

/// How a craft or a council move is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pay {
    Time,
    Price,
    Green,
    Scroll,
    Brown,
}

/// A council privilege (`docs/log-format-village.md` "Privilege objects").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Privilege {
    pub stage: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubes: Option<Vec<Cube>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub good: Option<Good>,
}

/// A travel reward choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RewardChoice {
    pub cubes: Vec<Cube>,
}

/// An action (`{"do": ...}`, `docs/log-format-village.md` "Actions").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Harvest {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
    Family {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recall: Option<MemberRef>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
    Craft {
        building: Building,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        good: Option<Good>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pay: Option<Pay>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        train: Option<MemberRef>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
    Market {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
    Council {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        enter: Option<MemberRef>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        advance: Option<MemberRef>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pay: Option<Pay>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        privilege: Option<Privilege>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
    Travel {
        member: MemberRef,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reward: Option<RewardChoice>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
    Church {
        member: MemberRef,
        pay: Pay,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
}

impl Action {
    /// The action space the action belongs to (G.3.4).
    pub fn space(&self) -> Space {
        match self {
            Action::Harvest { .. } => Space::Harvest,
            Action::Family { .. } => Space::Family,
            Action::Craft { .. } => Space::Crafts,
            Action::Market { .. } => Space::Market,
            Action::Council { .. } => Space::Council,
            Action::Travel { .. } => Space::Travel,
            Action::Church { .. } => Space::Church,
        }
    }

    /// The `do` id.
    pub fn id(&self) -> &'static str {
        match self {
            Action::Craft { .. } => "craft",
            other => other.space().id(),
        }
    }

    pub fn coin_for(&self) -> &[Cube] {
        match self {
            Action::Harvest { coin_for }
            | Action::Family { coin_for, .. }
            | Action::Craft { coin_for, .. }
            | Action::Market { coin_for }
            | Action::Council { coin_for, .. }
            | Action::Travel { coin_for, .. }
            | Action::Church { coin_for, .. } => coin_for,
        }
    }
}

/// `populate.spaces`: every action space listed (H.28).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PopulateSpaces {
    pub harvest: Vec<Cube>,
    pub family: Vec<Cube>,
    pub crafts: Vec<Cube>,
    pub market: Vec<Cube>,
    pub travel: Vec<Cube>,
    pub council: Vec<Cube>,
    pub church: Vec<Cube>,
}

impl PopulateSpaces {
    /// The lists in canonical space order.
    pub fn lists(&self) -> [(Space, &Vec<Cube>); 7] {
        [
            (Space::Harvest, &self.harvest),
            (Space::Family, &self.family),
            (Space::Crafts, &self.crafts),
            (Space::Market, &self.market),
            (Space::Travel, &self.travel),
            (Space::Council, &self.council),
            (Space::Church, &self.church),
        ]
    }

    pub fn from_lists(mut get: impl FnMut(Space) -> Vec<Cube>) -> PopulateSpaces {
        PopulateSpaces {
            harvest: get(Space::Harvest),
            family: get(Space::Family),
            crafts: get(Space::Crafts),
            market: get(Space::Market),
            travel: get(Space::Travel),
            council: get(Space::Council),
            church: get(Space::Church),
        }
    }
}

/// A mass buy: one player's generations bought from the bag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MassBuy {
    pub player: usize,
    pub gens: Vec<u8>,
}

/// An item drawn from the black bag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DrawItem {
    Monk(MonkTag),
    Member { player: Who, gen: u8 },
}

/// The string `"monk"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MonkTag {
    Monk,
}

/// One promotion move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub gen: u8,
    pub from: u8,
    pub to: u8,
}

/// One player's promotions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Promotion {
    pub player: usize,
    pub moves: Vec<Move>,
}

/// A fate tile set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FateSet {
    Top,
    Bottom,
}

/// A fate tile face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    Quill,
    Blank,
}

/// A log entry (`docs/log-format-village.md` "Entries").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Entry {
    Populate {
        round: u64,
        spaces: PopulateSpaces,
    },
    Turn {
        player: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        take: Option<Take>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        well: Option<WellNotation>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        free: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<Action>,
    },
    Sale {
        player: Who,
        customer: Customer,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        coin_for: Vec<Cube>,
    },
    Pass {
        player: Who,
    },
    Refill {
        tiles: Vec<Customer>,
    },
    Death {
        player: usize,
        member: MemberRef,
    },
    Mass {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        buy: Vec<MassBuy>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draw: Option<Vec<DrawItem>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        promote: Vec<Promotion>,
    },
    Carla {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rolls: Option<Vec<Cube>>,
        space: Space,
        cube: Cube,
    },
    Fate {
        set: FateSet,
        result: Face,
    },
}

impl Entry {
    /// The `type` id.
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Populate { .. } => "populate",
            Entry::Turn { .. } => "turn",
            Entry::Sale { .. } => "sale",
            Entry::Pass { .. } => "pass",
            Entry::Refill { .. } => "refill",
            Entry::Death { .. } => "death",
            Entry::Mass { .. } => "mass",
            Entry::Carla { .. } => "carla",
            Entry::Fate { .. } => "fate",
        }
    }

    /// The seat the entry names, when it names one.
    pub fn seat(&self) -> Option<usize> {
        match self {
            Entry::Turn { player, .. } | Entry::Death { player, .. } => Some(*player),
            Entry::Sale { player: Who::Seat(p), .. } | Entry::Pass { player: Who::Seat(p) } => Some(*p),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_reject_unknown_fields_and_ids() {
        let ok: Result<Entry, _> = serde_json::from_str(r#"{"type": "pass", "player": "carla"}"#);
        assert!(matches!(ok, Ok(Entry::Pass { player: Who::Carla })));
        let bad: Result<Entry, _> = serde_json::from_str(r#"{"type": "pass", "player": 0, "x": 1}"#);
        assert!(bad.is_err_and(|e| e.to_string().contains("unknown field")));
        let bad: Result<Entry, _> =
            serde_json::from_str(r#"{"type": "turn", "player": 0, "take": {"space": "moon", "cube": "green"}}"#);
        assert!(bad.is_err_and(|e| e.to_string().contains("unknown variant")));
        let draw: Result<Vec<DrawItem>, _> = serde_json::from_str(r#"["monk", {"player": 1, "gen": 1}]"#);
        assert!(matches!(draw.as_deref(), Ok([DrawItem::Monk(_), DrawItem::Member { player: Who::Seat(1), gen: 1 }])));
    }

    #[test]
    fn actions_parse_as_documented() {
        let a: Result<Action, _> = serde_json::from_str(
            r#"{"do": "council", "advance": {"gen": 2, "at": "council:1"}, "pay": "scroll",
                "privilege": {"stage": 2, "cubes": ["orange", "pink"]}}"#,
        );
        assert!(matches!(a, Ok(Action::Council { advance: Some(_), pay: Some(Pay::Scroll), .. })));
        let bad: Result<Action, _> = serde_json::from_str(r#"{"do": "harvest", "extra": 1}"#);
        assert!(bad.is_err());
    }
}
