//! The `caverna-log/1` notation: what a log *says*, kept apart from what the rules make of it.
//!
//! These types only describe syntax. Every value here may still be illegal (a coordinate in
//! the Office-room ring, a strength of 9, a tile already built); [`crate::rules`] decides.
//! Entries are parsed one at a time during replay, so a malformed entry is reported at its own
//! index rather than failing the whole document.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::action_space::{ActionSpace, RoundCard};
use crate::furnishing::Furnishing;
use crate::goods::{FarmAnimal, Good, Goods};

/// A coordinate as written: `[row, col]`, not yet checked against the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct RawCoord(pub i64, pub i64);

impl std::fmt::Display for RawCoord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", self.0, self.1)
    }
}

/// A goods map as written: `{"wood": 2}`.
pub type GoodsMap = BTreeMap<Good, u32>;

pub fn goods_of(map: &GoodsMap) -> Goods {
    let mut g = Goods::new();
    for (&good, &n) in map {
        g.add(good, n);
    }
    g
}

/// `meta`: optional, every field optional (the same for every game, see [`chronicle_game::Meta`]).
pub use chronicle_game::Meta;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSeat {
    pub name: String,
    /// The player's own identifier across games (a Chronicle extension of the format): games
    /// with the same id are the same player whatever the name written, for ratings and the
    /// player pages. Unique within a game.
    #[serde(default)]
    pub id: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FurnishingSet {
    #[default]
    Full,
    Introductory,
}

impl FurnishingSet {
    /// The id in logs (`setup.furnishings`), also the game's variant id.
    pub fn id(self) -> &'static str {
        match self {
            FurnishingSet::Full => "full",
            FurnishingSet::Introductory => "introductory",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HarvestToken {
    Green,
    Red,
}

impl HarvestToken {
    pub const ALL: [HarvestToken; 2] = [HarvestToken::Green, HarvestToken::Red];

    /// The token's id in a log.
    pub const fn id(self) -> &'static str {
        match self {
            HarvestToken::Green => "green",
            HarvestToken::Red => "red",
        }
    }
}

/// The `setup` object, unvalidated (`docs/log-format.md` "Setup").
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupNotation {
    pub players: Vec<PlayerSeat>,
    #[serde(default)]
    pub furnishings: FurnishingSet,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_cards: Option<Vec<RoundCard>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harvest_tokens: Option<Vec<HarvestToken>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claimed {
    pub scores: Vec<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HarvestPhase {
    Field,
    Breeding,
}

/// One entry of `entries` (`docs/log-format.md` "Entries").
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Entry {
    Place {
        player: u32,
        space: ActionSpace,
        #[serde(skip_serializing_if = "Option::is_none")]
        dwarf: Option<u32>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ruby: bool,
        #[serde(default)]
        actions: Vec<Action>,
    },
    Free {
        player: u32,
        actions: Vec<Action>,
    },
    HarvestChoice {
        player: u32,
        phase: HarvestPhase,
    },
    Feed {
        player: u32,
        #[serde(default)]
        actions: Vec<Action>,
    },
    Breed {
        player: u32,
        animals: Vec<FarmAnimal>,
    },
    Keep {
        player: u32,
        spaces: Vec<ActionSpace>,
    },
}

impl Entry {
    pub fn player(&self) -> u32 {
        match self {
            Entry::Place { player, .. }
            | Entry::Free { player, .. }
            | Entry::HarvestChoice { player, .. }
            | Entry::Feed { player, .. }
            | Entry::Breed { player, .. }
            | Entry::Keep { player, .. } => *player,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Place { .. } => "place",
            Entry::Free { .. } => "free",
            Entry::HarvestChoice { .. } => "harvest_choice",
            Entry::Feed { .. } => "feed",
            Entry::Breed { .. } => "breed",
            Entry::Keep { .. } => "keep",
        }
    }
}

/// Tile kinds named in a twin's `kinds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TileKind {
    Cavern,
    Tunnel,
    Meadow,
    Field,
    OreMine,
    DeepTunnel,
}

/// The single tiles bought with rubies (`docs/rules/caverna-reference.md` F.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SingleTile {
    Meadow,
    Field,
    Tunnel,
    Cavern,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UseFor {
    Gold,
    Food,
}

/// One action inside an entry (`docs/log-format.md` "Actions").
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Twin {
        cells: [RawCoord; 2],
        kinds: [TileKind; 2],
    },
    OreMine {
        cells: [RawCoord; 2],
        kinds: [TileKind; 2],
    },
    RubyMine {
        at: RawCoord,
    },
    Furnish {
        tile: Furnishing,
        at: RawCoord,
        #[serde(skip_serializing_if = "Option::is_none")]
        pay: Option<GoodsMap>,
    },
    Grow {},
    Sow {
        #[serde(default)]
        grain: Vec<RawCoord>,
        #[serde(default)]
        vegetable: Vec<RawCoord>,
    },
    Fence {
        cells: Vec<RawCoord>,
    },
    Stable {
        at: RawCoord,
    },
    Forge {
        strength: u32,
    },
    Expedition {
        loot: Vec<Loot>,
    },
    TradeOre {
        times: u32,
    },
    Buy {
        goods: Vec<Good>,
    },
    Gain {},
    Dog {},
    Imitate {
        space: ActionSpace,
        #[serde(default)]
        actions: Vec<Action>,
    },
    Convert {
        goods: GoodsMap,
    },
    BuyFood {
        food: u32,
    },
    RubyTrade {
        goods: GoodsMap,
    },
    RubyTile {
        tile: SingleTile,
        at: RawCoord,
    },
    Use {
        tile: Furnishing,
        #[serde(skip_serializing_if = "Option::is_none")]
        times: Option<u32>,
        #[serde(rename = "for")]
        #[serde(skip_serializing_if = "Option::is_none")]
        for_: Option<UseFor>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pay: Option<Good>,
        #[serde(skip_serializing_if = "Option::is_none")]
        dwarf: Option<u32>,
    },
    Release {
        animals: GoodsMap,
    },
}

impl Action {
    pub fn name(&self) -> &'static str {
        match self {
            Action::Twin { .. } => "twin",
            Action::OreMine { .. } => "ore_mine",
            Action::RubyMine { .. } => "ruby_mine",
            Action::Furnish { .. } => "furnish",
            Action::Grow {} => "grow",
            Action::Sow { .. } => "sow",
            Action::Fence { .. } => "fence",
            Action::Stable { .. } => "stable",
            Action::Forge { .. } => "forge",
            Action::Expedition { .. } => "expedition",
            Action::TradeOre { .. } => "trade_ore",
            Action::Buy { .. } => "buy",
            Action::Gain {} => "gain",
            Action::Dog {} => "dog",
            Action::Imitate { .. } => "imitate",
            Action::Convert { .. } => "convert",
            Action::BuyFood { .. } => "buy_food",
            Action::RubyTrade { .. } => "ruby_trade",
            Action::RubyTile { .. } => "ruby_tile",
            Action::Use { .. } => "use",
            Action::Release { .. } => "release",
        }
    }

    /// Actions the rules allow at any time, also inside a placement (`docs/log-format.md` "place").
    pub fn is_free(&self) -> bool {
        matches!(
            self,
            Action::Convert { .. }
                | Action::BuyFood { .. }
                | Action::RubyTrade { .. }
                | Action::RubyTile { .. }
                | Action::Use { .. }
                | Action::Release { .. }
        )
    }
}

/// Expedition loot ids (`docs/rules/caverna-reference.md` D.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LootItem {
    IncreaseAllWeapons,
    LootDog,
    LootWood,
    LootSheep,
    LootGrain,
    LootDonkey,
    LootStone,
    LootVegetable,
    #[serde(rename = "loot_ore_2")]
    LootOre2,
    LootBoar,
    #[serde(rename = "loot_gold_2")]
    LootGold2,
    LootFurnishCavern,
    LootStable,
    LootTunnel,
    LootSmallPasture,
    LootCattle,
    LootLargePasture,
    LootMeadow,
    #[serde(rename = "loot_dwelling_2w2s")]
    LootDwelling2w2s,
    LootField,
    LootSow,
    LootCavern,
    #[serde(rename = "loot_breed_2")]
    LootBreed2,
}

impl LootItem {
    /// Every loot item, in `docs/rules/caverna-reference.md` D.2 order (index = `LootItem as usize`).
    pub const ALL: [LootItem; 23] = [
        LootItem::IncreaseAllWeapons,
        LootItem::LootDog,
        LootItem::LootWood,
        LootItem::LootSheep,
        LootItem::LootGrain,
        LootItem::LootDonkey,
        LootItem::LootStone,
        LootItem::LootVegetable,
        LootItem::LootOre2,
        LootItem::LootBoar,
        LootItem::LootGold2,
        LootItem::LootFurnishCavern,
        LootItem::LootStable,
        LootItem::LootTunnel,
        LootItem::LootSmallPasture,
        LootItem::LootCattle,
        LootItem::LootLargePasture,
        LootItem::LootMeadow,
        LootItem::LootDwelling2w2s,
        LootItem::LootField,
        LootItem::LootSow,
        LootItem::LootCavern,
        LootItem::LootBreed2,
    ];

    /// The log-format id (as serde spells it).
    pub fn id(self) -> &'static str {
        match self {
            LootItem::IncreaseAllWeapons => "increase_all_weapons",
            LootItem::LootDog => "loot_dog",
            LootItem::LootWood => "loot_wood",
            LootItem::LootSheep => "loot_sheep",
            LootItem::LootGrain => "loot_grain",
            LootItem::LootDonkey => "loot_donkey",
            LootItem::LootStone => "loot_stone",
            LootItem::LootVegetable => "loot_vegetable",
            LootItem::LootOre2 => "loot_ore_2",
            LootItem::LootBoar => "loot_boar",
            LootItem::LootGold2 => "loot_gold_2",
            LootItem::LootFurnishCavern => "loot_furnish_cavern",
            LootItem::LootStable => "loot_stable",
            LootItem::LootTunnel => "loot_tunnel",
            LootItem::LootSmallPasture => "loot_small_pasture",
            LootItem::LootCattle => "loot_cattle",
            LootItem::LootLargePasture => "loot_large_pasture",
            LootItem::LootMeadow => "loot_meadow",
            LootItem::LootDwelling2w2s => "loot_dwelling_2w2s",
            LootItem::LootField => "loot_field",
            LootItem::LootSow => "loot_sow",
            LootItem::LootCavern => "loot_cavern",
            LootItem::LootBreed2 => "loot_breed_2",
        }
    }

    pub fn from_id(id: &str) -> Option<LootItem> {
        LootItem::ALL.into_iter().find(|l| l.id() == id)
    }
}

/// One loot object: the item and the parameters it needs.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Loot {
    pub item: LootItem,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile: Option<Furnishing>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<RawCoord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<RawCoord>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grain: Option<Vec<RawCoord>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vegetable: Option<Vec<RawCoord>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub animals: Option<Vec<FarmAnimal>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loot_items_are_listed_in_index_order() {
        for (i, item) in LootItem::ALL.iter().enumerate() {
            assert_eq!(*item as usize, i);
        }
    }

    /// Every loot item's id is its serde spelling, and `from_id` reads it back.
    #[test]
    fn loot_item_ids_match_serde() {
        for item in LootItem::ALL {
            assert_eq!(serde_json::to_value(item).unwrap(), serde_json::Value::from(item.id()), "{item:?}");
            assert_eq!(serde_json::from_value::<LootItem>(item.id().into()).unwrap(), item, "{item:?}");
            assert_eq!(LootItem::from_id(item.id()), Some(item));
        }
        assert_eq!(LootItem::LootOre2.id(), "loot_ore_2");
        assert_eq!(LootItem::LootDwelling2w2s.id(), "loot_dwelling_2w2s");
        for unknown in ["", "loot_ore2", "loot_breed2", "LootDog", "loot_dog ", "loot_ruby"] {
            assert_eq!(LootItem::from_id(unknown), None, "{unknown:?}");
        }
    }

    /// Entries written by the engine (generated moves) read back as the same entries.
    #[test]
    fn entries_round_trip_through_json() {
        let samples = [
            r#"{"type":"place","player":1,"space":"excavation","dwarf":0,"ruby":true,"actions":[{"do":"twin","cells":[[1,3],[1,4]],"kinds":["cavern","tunnel"]}]}"#,
            r#"{"type":"place","player":0,"space":"housework","actions":[{"do":"dog"},{"do":"furnish","tile":"dwelling","at":[2,3],"pay":{"ore":1,"stone":3}}]}"#,
            r#"{"type":"place","player":0,"space":"imitation","actions":[{"do":"imitate","space":"logging","actions":[{"do":"expedition","loot":[{"item":"loot_ore_2"},{"item":"loot_sow","grain":[[0,0]],"vegetable":[]}]}]}]}"#,
            r#"{"type":"feed","player":2,"actions":[{"do":"use","tile":"working_cave","pay":"wood"},{"do":"use","tile":"beer_parlor","times":2,"for":"food"}]}"#,
            r#"{"type":"breed","player":0,"animals":["sheep","cattle"]}"#,
            r#"{"type":"keep","player":0,"spaces":["logging"]}"#,
            r#"{"type":"harvest_choice","player":0,"phase":"breeding"}"#,
        ];
        for text in samples {
            let entry: Entry = serde_json::from_str(text).unwrap();
            let back = serde_json::to_string(&entry).unwrap();
            let again: Entry = serde_json::from_str(&back).unwrap();
            assert_eq!(entry, again, "{back}");
        }
    }
}
