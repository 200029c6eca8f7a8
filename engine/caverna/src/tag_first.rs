//! A fast reading of an entry whose `"type"` comes first, as every writer of this project puts
//! it (the simulator, the recorder, serde's own serializer).
//!
//! `Entry` is an internally tagged enum: serde reads one by buffering the whole object (its
//! private `Content` tree) until it has found the tag, then reading the variant from the buffer.
//! When the tag is the first member, nothing needs buffering: the variant's fields are read
//! straight from the text. This reader does that and refuses anything else (a tag further on,
//! a repeated member, a key with escapes): the caller then reads the entry the usual way, so
//! every result other than a success — and every error message — is the usual reading's.
//! Each variant's body mirrors `Entry`'s fields and defaults exactly.

use serde::de::value::MapAccessDeserializer;
use serde::de::{Error, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::action_space::ActionSpace;
use crate::furnishing::Furnishing;
use crate::goods::{FarmAnimal, Good};
use crate::notation::{Action, Entry, GoodsMap, HarvestPhase, Loot, RawCoord, SingleTile, TileKind, UseFor};

/// An entry read by [`TagFirst`]'s fast path.
pub(crate) struct TagFirst(pub(crate) Entry);

/// The entry types, as the tag names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    Place,
    Free,
    HarvestChoice,
    Feed,
    Breed,
    Keep,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceBody {
    player: u32,
    space: ActionSpace,
    dwarf: Option<u32>,
    #[serde(default)]
    ruby: bool,
    #[serde(default)]
    actions: Vec<FastAction>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FreeBody {
    player: u32,
    actions: Vec<FastAction>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HarvestChoiceBody {
    player: u32,
    phase: HarvestPhase,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FeedBody {
    player: u32,
    #[serde(default)]
    actions: Vec<FastAction>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BreedBody {
    player: u32,
    animals: Vec<FarmAnimal>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeepBody {
    player: u32,
    spaces: Vec<ActionSpace>,
}

/// An action read by the same fast path (`"do"` first); see the module.
struct FastAction(Action);

fn actions(fast: Vec<FastAction>) -> Vec<Action> {
    fast.into_iter().map(|a| a.0).collect()
}

/// The action kinds, as the tag names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Do {
    Twin,
    OreMine,
    RubyMine,
    Furnish,
    Grow,
    Sow,
    Fence,
    Stable,
    Forge,
    Expedition,
    TradeOre,
    Buy,
    Gain,
    Dog,
    Imitate,
    Convert,
    BuyFood,
    RubyTrade,
    RubyTile,
    Use,
    Release,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TilePair {
    cells: [RawCoord; 2],
    kinds: [TileKind; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct At {
    at: RawCoord,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FurnishBody {
    tile: Furnishing,
    at: RawCoord,
    pay: Option<GoodsMap>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SowBody {
    #[serde(default)]
    grain: Vec<RawCoord>,
    #[serde(default)]
    vegetable: Vec<RawCoord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cells {
    cells: Vec<RawCoord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Strength {
    strength: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LootBody {
    loot: Vec<Loot>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Times {
    times: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoodsList {
    goods: Vec<Good>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImitateBody {
    space: ActionSpace,
    #[serde(default)]
    actions: Vec<FastAction>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoodsBody {
    goods: GoodsMap,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Food {
    food: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RubyTileBody {
    tile: SingleTile,
    at: RawCoord,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UseBody {
    tile: Furnishing,
    times: Option<u32>,
    #[serde(rename = "for")]
    for_: Option<UseFor>,
    pay: Option<Good>,
    dwarf: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Animals {
    animals: GoodsMap,
}

/// The action `what` names, its body read from the rest of the object.
fn action<'de, D: Deserializer<'de>>(what: Do, rest: D) -> Result<Action, D::Error> {
    Ok(match what {
        Do::Twin => {
            let b = TilePair::deserialize(rest)?;
            Action::Twin { cells: b.cells, kinds: b.kinds }
        }
        Do::OreMine => {
            let b = TilePair::deserialize(rest)?;
            Action::OreMine { cells: b.cells, kinds: b.kinds }
        }
        Do::RubyMine => Action::RubyMine { at: At::deserialize(rest)?.at },
        Do::Furnish => {
            let b = FurnishBody::deserialize(rest)?;
            Action::Furnish { tile: b.tile, at: b.at, pay: b.pay }
        }
        Do::Grow => {
            Nothing::deserialize(rest)?;
            Action::Grow {}
        }
        Do::Sow => {
            let b = SowBody::deserialize(rest)?;
            Action::Sow { grain: b.grain, vegetable: b.vegetable }
        }
        Do::Fence => Action::Fence { cells: Cells::deserialize(rest)?.cells },
        Do::Stable => Action::Stable { at: At::deserialize(rest)?.at },
        Do::Forge => Action::Forge { strength: Strength::deserialize(rest)?.strength },
        Do::Expedition => Action::Expedition { loot: LootBody::deserialize(rest)?.loot },
        Do::TradeOre => Action::TradeOre { times: Times::deserialize(rest)?.times },
        Do::Buy => Action::Buy { goods: GoodsList::deserialize(rest)?.goods },
        Do::Gain => {
            Nothing::deserialize(rest)?;
            Action::Gain {}
        }
        Do::Dog => {
            Nothing::deserialize(rest)?;
            Action::Dog {}
        }
        Do::Imitate => {
            let b = ImitateBody::deserialize(rest)?;
            Action::Imitate { space: b.space, actions: actions(b.actions) }
        }
        Do::Convert => Action::Convert { goods: GoodsBody::deserialize(rest)?.goods },
        Do::BuyFood => Action::BuyFood { food: Food::deserialize(rest)?.food },
        Do::RubyTrade => Action::RubyTrade { goods: GoodsBody::deserialize(rest)?.goods },
        Do::RubyTile => {
            let b = RubyTileBody::deserialize(rest)?;
            Action::RubyTile { tile: b.tile, at: b.at }
        }
        Do::Use => {
            let b = UseBody::deserialize(rest)?;
            Action::Use { tile: b.tile, times: b.times, for_: b.for_, pay: b.pay, dwarf: b.dwarf }
        }
        Do::Release => Action::Release { animals: Animals::deserialize(rest)?.animals },
    })
}

struct ActionVisitor;

impl<'de> Visitor<'de> for ActionVisitor {
    type Value = FastAction;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an action whose first member is \"do\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FastAction, A::Error> {
        if map.next_key::<&'de str>()? != Some("do") {
            return Err(A::Error::custom("the tag is not the first member"));
        }
        let what: Do = map.next_value()?;
        action(what, MapAccessDeserializer::new(map)).map(FastAction)
    }
}

impl<'de> Deserialize<'de> for FastAction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FastAction, D::Error> {
        d.deserialize_map(ActionVisitor)
    }
}

struct EntryVisitor;

impl<'de> Visitor<'de> for EntryVisitor {
    type Value = TagFirst;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an entry whose first member is \"type\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TagFirst, A::Error> {
        if map.next_key::<&'de str>()? != Some("type") {
            return Err(A::Error::custom("the tag is not the first member"));
        }
        let kind: Kind = map.next_value()?;
        let rest = MapAccessDeserializer::new(map);
        Ok(TagFirst(match kind {
            Kind::Place => {
                let b = PlaceBody::deserialize(rest)?;
                Entry::Place {
                    player: b.player,
                    space: b.space,
                    dwarf: b.dwarf,
                    ruby: b.ruby,
                    actions: actions(b.actions),
                }
            }
            Kind::Free => {
                let b = FreeBody::deserialize(rest)?;
                Entry::Free { player: b.player, actions: actions(b.actions) }
            }
            Kind::HarvestChoice => {
                let b = HarvestChoiceBody::deserialize(rest)?;
                Entry::HarvestChoice { player: b.player, phase: b.phase }
            }
            Kind::Feed => {
                let b = FeedBody::deserialize(rest)?;
                Entry::Feed { player: b.player, actions: actions(b.actions) }
            }
            Kind::Breed => {
                let b = BreedBody::deserialize(rest)?;
                Entry::Breed { player: b.player, animals: b.animals }
            }
            Kind::Keep => {
                let b = KeepBody::deserialize(rest)?;
                Entry::Keep { player: b.player, spaces: b.spaces }
            }
        }))
    }
}

impl<'de> Deserialize<'de> for TagFirst {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TagFirst, D::Error> {
        d.deserialize_map(EntryVisitor)
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
            r#"{"type":"place","player":1,"space":"logging","actions":[{"do":"grow"}]}"#,
            r#"{"type":"place","player":0,"space":"drift_mining","dwarf":2,"ruby":true}"#,
            r#"{"type":"free","player":0,"actions":[]}"#,
            r#"{"type":"harvest_choice","player":1,"phase":"field"}"#,
            r#"{"type":"feed","player":2}"#,
            r#"{"type":"breed","player":0,"animals":["sheep"]}"#,
            r#"{"type":"keep","player":0,"spaces":["logging"]}"#,
            r#"{"type":"place","player":0,"space":"imitation","actions":[{"do":"imitate","space":"logging","actions":[{"do":"expedition","loot":[{"item":"loot_wood"}]}]}]}"#,
            r#"{"type":"free","player":0,"actions":[{"do":"convert","goods":{"grain":1}},{"do":"use","tile":"carpenter","for":"food","times":2},{"do":"sow","grain":[[1,2]]},{"do":"twin","cells":[[0,1],[0,2]],"kinds":["cavern","tunnel"]},{"do":"release","animals":{"sheep":1}},{"do":"gain"}]}"#,
        ];
        for text in same {
            let usual: Entry = serde_json::from_str(text).expect(text);
            let fast: TagFirst = serde_json::from_str(text).expect(text);
            assert_eq!(fast.0, usual, "{text}");
        }
        let refused = [
            r#"{"player":1,"type":"free","actions":[]}"#,
            r#"{"type":"free","player":1,"player":1,"actions":[]}"#,
            r#"{"type":"free","player":1,"actions":[],"x":1}"#,
            r#"{"type":"nothing","player":1}"#,
            r#"{"typ\u0065":"free","player":1,"actions":[]}"#,
            r#"["type","free"]"#,
            r#"{"type":"free","player":1,"actions":[{"goods":{"grain":1},"do":"convert"}]}"#,
            r#"{"type":"free","player":1,"actions":[{"do":"grow","x":1}]}"#,
        ];
        for text in refused {
            assert!(serde_json::from_str::<TagFirst>(text).is_err(), "{text}");
        }
    }
}
