//! A fast reading of an entry whose `"type"` comes first, as every writer of this project puts
//! it (the simulator, the recorder, serde's own serializer).
//!
//! `Entry` and `Action` are internally tagged enums and `Who` and `DrawItem` untagged ones:
//! serde reads each by buffering the whole value (its private `Content` tree) and reading the
//! variant from the buffer. When the tag is the first member, nothing needs buffering: the
//! variant's fields are read straight from the text. This reader does that and refuses
//! anything else (a tag further on, a repeated member, a key with escapes, a draw item that is
//! not `"monk"` or exactly `{"player", "gen"}`): the caller then reads the entry the usual way,
//! so every result other than a success — and every error message — is the usual reading's.
//! Each variant's body mirrors `Entry`'s and `Action`'s fields and defaults exactly.

use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeSeed, Error, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::ids::{Building, Cube, Customer, Good, Space};
use crate::notation::{
    Action, DrawItem, Entry, Face, FateSet, MassBuy, MemberRef, MonkTag, Pay, PopulateSpaces, Privilege, Promotion,
    RewardChoice, Take, WellNotation, Who,
};

/// One entry read alone by this fast path (the tests compare it with the usual reading).
#[cfg(test)]
pub(crate) struct TagFirst(pub(crate) Entry);

/// Reads the first key of an object and checks it is `tag`, unescaped.
fn first_key_is<'de, A: MapAccess<'de>>(map: &mut A, tag: &str) -> Result<(), A::Error> {
    match map.next_key::<&'de str>()? {
        Some(key) if key == tag => Ok(()),
        _ => Err(A::Error::custom("the tag is not the first member")),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Populate,
    Turn,
    Sale,
    Pass,
    Refill,
    Death,
    Mass,
    Carla,
    Fate,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PopulateBody {
    round: u64,
    spaces: PopulateSpaces,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnBody {
    player: usize,
    #[serde(default)]
    take: Option<Take>,
    #[serde(default)]
    well: Option<WellNotation>,
    #[serde(default)]
    free: Option<bool>,
    #[serde(default)]
    action: Option<FastAction>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaleBody {
    player: FastWho,
    customer: Customer,
    #[serde(default)]
    coin_for: Vec<Cube>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PassBody {
    player: FastWho,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RefillBody {
    tiles: Vec<Customer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeathBody {
    player: usize,
    member: MemberRef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MassBody {
    #[serde(default)]
    buy: Vec<MassBuy>,
    #[serde(default)]
    draw: Option<Vec<FastDrawItem>>,
    #[serde(default)]
    promote: Vec<Promotion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CarlaBody {
    #[serde(default)]
    rolls: Option<Vec<Cube>>,
    space: Space,
    cube: Cube,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FateBody {
    set: FateSet,
    result: Face,
}

/// The entry `kind` names, its body read from the rest of the object.
fn entry<'de, D: Deserializer<'de>>(kind: Kind, rest: D) -> Result<Entry, D::Error> {
    Ok(match kind {
        Kind::Populate => {
            let b = PopulateBody::deserialize(rest)?;
            Entry::Populate { round: b.round, spaces: b.spaces }
        }
        Kind::Turn => {
            let b = TurnBody::deserialize(rest)?;
            Entry::Turn { player: b.player, take: b.take, well: b.well, free: b.free, action: b.action.map(|a| a.0) }
        }
        Kind::Sale => {
            let b = SaleBody::deserialize(rest)?;
            Entry::Sale { player: b.player.0, customer: b.customer, coin_for: b.coin_for }
        }
        Kind::Pass => Entry::Pass { player: PassBody::deserialize(rest)?.player.0 },
        Kind::Refill => Entry::Refill { tiles: RefillBody::deserialize(rest)?.tiles },
        Kind::Death => {
            let b = DeathBody::deserialize(rest)?;
            Entry::Death { player: b.player, member: b.member }
        }
        Kind::Mass => {
            let b = MassBody::deserialize(rest)?;
            let draw = b.draw.map(|d| d.into_iter().map(|i| i.0).collect());
            Entry::Mass { buy: b.buy, draw, promote: b.promote }
        }
        Kind::Carla => {
            let b = CarlaBody::deserialize(rest)?;
            Entry::Carla { rolls: b.rolls, space: b.space, cube: b.cube }
        }
        Kind::Fate => {
            let b = FateBody::deserialize(rest)?;
            Entry::Fate { set: b.set, result: b.result }
        }
    })
}

/// An action read by the same fast path (`"do"` first); see the module.
struct FastAction(Action);

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Do {
    Harvest,
    Family,
    Craft,
    Market,
    Council,
    Travel,
    Church,
}

/// The body of `harvest` and `market`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoinsOnly {
    #[serde(default)]
    coin_for: Vec<Cube>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FamilyBody {
    #[serde(default)]
    recall: Option<MemberRef>,
    #[serde(default)]
    coin_for: Vec<Cube>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CraftBody {
    building: Building,
    #[serde(default)]
    good: Option<Good>,
    #[serde(default)]
    pay: Option<Pay>,
    #[serde(default)]
    train: Option<MemberRef>,
    #[serde(default)]
    coin_for: Vec<Cube>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CouncilBody {
    #[serde(default)]
    enter: Option<MemberRef>,
    #[serde(default)]
    advance: Option<MemberRef>,
    #[serde(default)]
    pay: Option<Pay>,
    #[serde(default)]
    privilege: Option<Privilege>,
    #[serde(default)]
    coin_for: Vec<Cube>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TravelBody {
    member: MemberRef,
    to: String,
    #[serde(default)]
    reward: Option<RewardChoice>,
    #[serde(default)]
    coin_for: Vec<Cube>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChurchBody {
    member: MemberRef,
    pay: Pay,
    #[serde(default)]
    coin_for: Vec<Cube>,
}

/// The action `what` names, its body read from the rest of the object.
fn action<'de, D: Deserializer<'de>>(what: Do, rest: D) -> Result<Action, D::Error> {
    Ok(match what {
        Do::Harvest => Action::Harvest { coin_for: CoinsOnly::deserialize(rest)?.coin_for },
        Do::Market => Action::Market { coin_for: CoinsOnly::deserialize(rest)?.coin_for },
        Do::Family => {
            let b = FamilyBody::deserialize(rest)?;
            Action::Family { recall: b.recall, coin_for: b.coin_for }
        }
        Do::Craft => {
            let b = CraftBody::deserialize(rest)?;
            Action::Craft { building: b.building, good: b.good, pay: b.pay, train: b.train, coin_for: b.coin_for }
        }
        Do::Council => {
            let b = CouncilBody::deserialize(rest)?;
            Action::Council {
                enter: b.enter,
                advance: b.advance,
                pay: b.pay,
                privilege: b.privilege,
                coin_for: b.coin_for,
            }
        }
        Do::Travel => {
            let b = TravelBody::deserialize(rest)?;
            Action::Travel { member: b.member, to: b.to, reward: b.reward, coin_for: b.coin_for }
        }
        Do::Church => {
            let b = ChurchBody::deserialize(rest)?;
            Action::Church { member: b.member, pay: b.pay, coin_for: b.coin_for }
        }
    })
}

/// The visitor of an object whose first member is the tag `key`.
struct Tagged {
    key: &'static str,
}

impl Tagged {
    fn read<'de, A: MapAccess<'de>, T: Deserialize<'de>>(&self, map: &mut A) -> Result<T, A::Error> {
        first_key_is(map, self.key)?;
        map.next_value()
    }
}

struct ActionVisitor;

impl<'de> Visitor<'de> for ActionVisitor {
    type Value = FastAction;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an action whose first member is \"do\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FastAction, A::Error> {
        let what: Do = Tagged { key: "do" }.read(&mut map)?;
        action(what, MapAccessDeserializer::new(map)).map(FastAction)
    }
}

impl<'de> Deserialize<'de> for FastAction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FastAction, D::Error> {
        d.deserialize_map(ActionVisitor)
    }
}

/// Reads one entry tag first and hands it to its closure where it was read, so that the entry
/// (a large value) is not moved up through the reader's layers.
pub(crate) struct Then<F>(pub(crate) F);

impl<'de, F: FnOnce(Entry) -> Result<(), String>> Visitor<'de> for Then<F> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an entry whose first member is \"type\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let kind: Kind = Tagged { key: "type" }.read(&mut map)?;
        let entry = entry(kind, MapAccessDeserializer::new(map))?;
        (self.0)(entry).map_err(A::Error::custom)
    }
}

impl<'de, F: FnOnce(Entry) -> Result<(), String>> DeserializeSeed<'de> for Then<F> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

#[cfg(test)]
impl<'de> Deserialize<'de> for TagFirst {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TagFirst, D::Error> {
        let mut read = None;
        Then(|entry| {
            read = Some(TagFirst(entry));
            Ok(())
        })
        .deserialize(d)?;
        read.ok_or_else(|| D::Error::custom("no entry"))
    }
}

/// A [`Who`] read without buffering: a JSON unsigned integer is a seat, the string `"carla"`
/// Carla, as `Who`'s own (untagged) reading has them; anything else is refused.
struct FastWho(Who);

struct WhoVisitor;

impl Visitor<'_> for WhoVisitor {
    type Value = FastWho;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a seat number or \"carla\"")
    }

    fn visit_u64<E: Error>(self, n: u64) -> Result<FastWho, E> {
        Ok(FastWho(Who::Seat(usize::try_from(n).unwrap_or(usize::MAX))))
    }

    fn visit_str<E: Error>(self, s: &str) -> Result<FastWho, E> {
        match s {
            "carla" => Ok(FastWho(Who::Carla)),
            _ => Err(E::custom("not a player")),
        }
    }
}

impl<'de> Deserialize<'de> for FastWho {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FastWho, D::Error> {
        d.deserialize_any(WhoVisitor)
    }
}

/// A [`DrawItem`] read without buffering: the string `"monk"`, or an object of exactly
/// `player` and `gen`, each once; anything else is refused.
struct FastDrawItem(DrawItem);

struct DrawVisitor;

impl<'de> Visitor<'de> for DrawVisitor {
    type Value = FastDrawItem;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\"monk\" or a member")
    }

    fn visit_str<E: Error>(self, s: &str) -> Result<FastDrawItem, E> {
        match s {
            "monk" => Ok(FastDrawItem(DrawItem::Monk(MonkTag::Monk))),
            _ => Err(E::custom("not a draw item")),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FastDrawItem, A::Error> {
        let (mut player, mut gen) = (None, None);
        while let Some(key) = map.next_key::<&'de str>()? {
            match key {
                "player" if player.is_none() => player = Some(map.next_value::<FastWho>()?.0),
                "gen" if gen.is_none() => gen = Some(map.next_value::<u8>()?),
                _ => return Err(A::Error::custom("not a draw item")),
            }
        }
        match (player, gen) {
            (Some(player), Some(gen)) => Ok(FastDrawItem(DrawItem::Member { player, gen })),
            _ => Err(A::Error::custom("not a draw item")),
        }
    }
}

impl<'de> Deserialize<'de> for FastDrawItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FastDrawItem, D::Error> {
        d.deserialize_any(DrawVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path reads what `Entry`'s own reading reads, and refuses what it cannot read
    /// alone (the caller then reads the usual way).
    #[test]
    fn tag_first_entries_read_as_the_usual_reading() {
        let same = [
            r#"{"type":"populate","round":1,"spaces":{"harvest":["orange"],"family":[],"crafts":[],"market":[],"travel":[],"council":[],"church":["black"]}}"#,
            r#"{"type":"turn","player":0,"take":{"space":"crafts","cube":"green"},"action":{"do":"craft","building":"office","pay":"price","coin_for":["pink"]}}"#,
            r#"{"type":"turn","player":1,"well":{"color":"pink"},"free":true,"action":null}"#,
            r#"{"type":"turn","player":0,"action":{"do":"council","advance":{"gen":2,"at":"council:1"},"pay":"scroll","privilege":{"stage":2,"cubes":["orange","pink"]}}}"#,
            r#"{"type":"turn","player":0,"action":{"do":"travel","member":{"gen":1},"to":"x","reward":{"cubes":[]}}}"#,
            r#"{"type":"turn","player":0,"action":{"do":"church","member":{"gen":1,"at":"farm"},"pay":"green"}}"#,
            r#"{"type":"turn","player":0,"action":{"do":"family","recall":{"gen":3}}}"#,
            r#"{"type":"turn","player":0,"action":{"do":"market","coin_for":[]}}"#,
            r#"{"type":"sale","player":"carla","customer":"c03","coin_for":["brown"]}"#,
            r#"{"type":"pass","player":2}"#,
            r#"{"type":"pass","player":"c\u0061rla"}"#,
            r#"{"type":"refill","tiles":["c23"]}"#,
            r#"{"type":"death","player":0,"member":{"gen":1}}"#,
            r#"{"type":"mass"}"#,
            r#"{"type":"mass","buy":[{"player":0,"gens":[2]}],"draw":["monk",{"gen":1,"player":"carla"},{"player":1,"gen":2}],"promote":[{"player":0,"moves":[{"gen":1,"from":1,"to":2}]}]}"#,
            r#"{"type":"mass","draw":null}"#,
            r#"{"type":"carla","rolls":["green"],"space":"crafts","cube":"brown"}"#,
            r#"{"type":"fate","set":"top","result":"quill"}"#,
        ];
        for text in same {
            let usual: Entry = serde_json::from_str(text).expect(text);
            let fast: TagFirst = serde_json::from_str(text).expect(text);
            assert_eq!(fast.0, usual, "{text}");
        }
        let refused = [
            r#"{"player":1,"type":"pass"}"#,
            r#"{"type":"pass","player":1,"player":1}"#,
            r#"{"type":"pass","player":1,"x":1}"#,
            r#"{"type":"nothing","player":1}"#,
            r#"{"typ\u0065":"pass","player":1}"#,
            r#"["pass",1]"#,
            r#"{"type":"turn","player":0,"action":{"coin_for":[],"do":"harvest"}}"#,
            r#"{"type":"turn","player":0,"action":{"do":"harvest","x":1}}"#,
            r#"{"type":"pass","player":-1}"#,
            r#"{"type":"pass","player":"bob"}"#,
            r#"{"type":"mass","draw":[{"monk":null}]}"#,
            r#"{"type":"mass","draw":[{"player":1,"gen":2,"x":0}]}"#,
            r#"{"type":"mass","draw":[[1,2]]}"#,
        ];
        for text in refused {
            assert!(serde_json::from_str::<TagFirst>(text).is_err(), "{text}");
        }
    }
}
