//! The 48 furnishing tiles: catalogue data of `docs/rules/caverna-reference.md` E (cost, printed points, set, family).
//!
//! Abilities live in the rule modules that use them; this file is only the printed tile.

use serde::{Deserialize, Serialize};

use crate::goods::{Good, Goods};

/// A furnishing tile id (`docs/rules/caverna-reference.md` E). `dwelling` has unlimited copies; every other tile is
/// unique in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Furnishing {
    // E.1 dwellings
    Dwelling,
    #[serde(rename = "simple_dwelling_4w2s")]
    SimpleDwelling4w2s,
    #[serde(rename = "simple_dwelling_3w3s")]
    SimpleDwelling3w3s,
    MixedDwelling,
    CoupleDwelling,
    AdditionalDwelling,
    // E.2 special tiles
    CuddleRoom,
    BreakfastRoom,
    StubbleRoom,
    WorkRoom,
    GuestRoom,
    OfficeRoom,
    // E.3 building-material tiles
    Carpenter,
    StoneCarver,
    Blacksmith,
    Miner,
    Builder,
    Trader,
    WoodSupplier,
    StoneSupplier,
    RubySupplier,
    DogSchool,
    Quarry,
    Seam,
    // E.4 food caves
    SlaughteringCave,
    CookingCave,
    WorkingCave,
    MiningCave,
    BreedingCave,
    PeacefulCave,
    // E.5 parlors
    WeavingParlor,
    MilkingParlor,
    StateParlor,
    HuntingParlor,
    BeerParlor,
    BlacksmithingParlor,
    // E.6 storages and chambers
    StoneStorage,
    OreStorage,
    SparePartStorage,
    MainStorage,
    WeaponStorage,
    SuppliesStorage,
    BroomChamber,
    TreasureChamber,
    FoodChamber,
    PrayerChamber,
    WritingChamber,
    FodderChamber,
}

/// The colour of a tile's name tag (`docs/rules/caverna-reference.md` E, "Structure").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Orange: room for dwarfs.
    Dwelling,
    /// Green: an ability or printed points.
    Ordinary,
    /// Yellow: parlors, storages and chambers (bonus points; counted by Main storage).
    Bonus,
}

/// The printed facts of one tile.
#[derive(Clone, Copy, Debug)]
pub struct TileCard {
    pub tile: Furnishing,
    pub id: &'static str,
    pub name: &'static str,
    pub cost: Goods,
    /// Printed gold value (score-pad row 8); 0 for bonus tiles without a printed value.
    pub points: u32,
    pub family: Family,
    /// In the introductory set (`docs/rules/caverna-reference.md` E "Set" column, decision H.21).
    pub intro: bool,
}

use Good::{Food as F, Gold as G, Grain as Gr, Ore as O, Stone as S, Vegetable as V, Wood as W};

macro_rules! card {
    ($tile:ident, $id:literal, $name:literal, [$(($g:expr, $n:expr)),*], $pts:expr, $fam:ident, $intro:expr) => {
        TileCard {
            tile: Furnishing::$tile,
            id: $id,
            name: $name,
            cost: Goods::of(&[$(($g, $n)),*]),
            points: $pts,
            family: Family::$fam,
            intro: $intro,
        }
    };
}

/// The catalogue, in `docs/rules/caverna-reference.md` E order. Index = `Furnishing as usize`.
pub const CATALOGUE: [TileCard; 48] = [
    card!(Dwelling, "dwelling", "Dwelling", [(W, 4), (S, 3)], 3, Dwelling, true),
    card!(SimpleDwelling4w2s, "simple_dwelling_4w2s", "Simple dwelling", [(W, 4), (S, 2)], 0, Dwelling, true),
    card!(SimpleDwelling3w3s, "simple_dwelling_3w3s", "Simple dwelling", [(W, 3), (S, 3)], 0, Dwelling, true),
    card!(MixedDwelling, "mixed_dwelling", "Mixed dwelling", [(W, 5), (S, 4)], 4, Dwelling, false),
    card!(CoupleDwelling, "couple_dwelling", "Couple dwelling", [(W, 8), (S, 6)], 5, Dwelling, false),
    card!(AdditionalDwelling, "additional_dwelling", "Additional dwelling", [(W, 4), (S, 3)], 5, Dwelling, false),
    card!(CuddleRoom, "cuddle_room", "Cuddle room", [(W, 1)], 2, Ordinary, true),
    card!(BreakfastRoom, "breakfast_room", "Breakfast room", [(W, 1)], 0, Ordinary, true),
    card!(StubbleRoom, "stubble_room", "Stubble room", [(W, 1), (O, 1)], 1, Ordinary, true),
    card!(WorkRoom, "work_room", "Work room", [(S, 1)], 2, Ordinary, false),
    card!(GuestRoom, "guest_room", "Guest room", [(W, 1), (S, 1)], 0, Ordinary, false),
    card!(OfficeRoom, "office_room", "Office room", [(S, 1)], 0, Ordinary, false),
    card!(Carpenter, "carpenter", "Carpenter", [(S, 1)], 0, Ordinary, true),
    card!(StoneCarver, "stone_carver", "Stone carver", [(W, 1)], 1, Ordinary, true),
    card!(Blacksmith, "blacksmith", "Blacksmith", [(W, 1), (S, 2)], 3, Ordinary, true),
    card!(Miner, "miner", "Miner", [(W, 1), (S, 1)], 3, Ordinary, false),
    card!(Builder, "builder", "Builder", [(S, 1)], 2, Ordinary, false),
    card!(Trader, "trader", "Trader", [(W, 1)], 2, Ordinary, false),
    card!(WoodSupplier, "wood_supplier", "Wood supplier", [(S, 1)], 2, Ordinary, true),
    card!(StoneSupplier, "stone_supplier", "Stone supplier", [(W, 1)], 1, Ordinary, true),
    card!(RubySupplier, "ruby_supplier", "Ruby supplier", [(W, 2), (S, 2)], 2, Ordinary, true),
    card!(DogSchool, "dog_school", "Dog school", [], 0, Ordinary, false),
    card!(Quarry, "quarry", "Quarry", [(W, 1)], 2, Ordinary, false),
    card!(Seam, "seam", "Seam", [(W, 2)], 1, Ordinary, false),
    card!(SlaughteringCave, "slaughtering_cave", "Slaughtering cave", [(W, 2), (S, 2)], 2, Ordinary, true),
    card!(CookingCave, "cooking_cave", "Cooking cave", [(S, 2)], 2, Ordinary, true),
    card!(WorkingCave, "working_cave", "Working cave", [(W, 1), (S, 1)], 2, Ordinary, true),
    card!(MiningCave, "mining_cave", "Mining cave", [(W, 3), (S, 2)], 2, Ordinary, false),
    card!(BreedingCave, "breeding_cave", "Breeding cave", [(Gr, 1), (S, 1)], 2, Ordinary, false),
    card!(PeacefulCave, "peaceful_cave", "Peaceful cave", [(W, 2), (S, 2)], 2, Ordinary, false),
    card!(WeavingParlor, "weaving_parlor", "Weaving parlor", [(W, 2), (S, 1)], 0, Bonus, true),
    card!(MilkingParlor, "milking_parlor", "Milking parlor", [(W, 2), (S, 2)], 0, Bonus, true),
    card!(StateParlor, "state_parlor", "State parlor", [(G, 5), (S, 3)], 0, Bonus, false),
    card!(HuntingParlor, "hunting_parlor", "Hunting parlor", [(W, 2)], 1, Bonus, true),
    card!(BeerParlor, "beer_parlor", "Beer parlor", [(W, 2)], 3, Bonus, true),
    card!(BlacksmithingParlor, "blacksmithing_parlor", "Blacksmithing parlor", [(O, 3)], 2, Bonus, false),
    card!(StoneStorage, "stone_storage", "Stone storage", [(W, 3), (O, 1)], 0, Bonus, true),
    card!(OreStorage, "ore_storage", "Ore storage", [(W, 1), (S, 2)], 0, Bonus, true),
    card!(SparePartStorage, "spare_part_storage", "Spare part storage", [(W, 2)], 0, Bonus, false),
    card!(MainStorage, "main_storage", "Main storage", [(W, 2), (S, 1)], 0, Bonus, true),
    card!(WeaponStorage, "weapon_storage", "Weapon storage", [(W, 3), (S, 2)], 0, Bonus, true),
    card!(SuppliesStorage, "supplies_storage", "Supplies storage", [(W, 1), (F, 3)], 0, Bonus, false),
    card!(BroomChamber, "broom_chamber", "Broom chamber", [(W, 1)], 0, Bonus, false),
    card!(TreasureChamber, "treasure_chamber", "Treasure chamber", [(W, 1), (S, 1)], 0, Bonus, true),
    card!(FoodChamber, "food_chamber", "Food chamber", [(W, 2), (V, 2)], 0, Bonus, true),
    card!(PrayerChamber, "prayer_chamber", "Prayer chamber", [(W, 2)], 0, Bonus, false),
    card!(WritingChamber, "writing_chamber", "Writing chamber", [(S, 2)], 0, Bonus, true),
    card!(FodderChamber, "fodder_chamber", "Fodder chamber", [(Gr, 2), (S, 1)], 0, Bonus, true),
];

impl Furnishing {
    pub fn card(self) -> &'static TileCard {
        &CATALOGUE[self as usize]
    }

    pub fn id(self) -> &'static str {
        self.card().id
    }

    /// The tile's printed name; for the two tiles printed with one name (the simple
    /// dwellings), the name with its cost, so that each is told apart.
    pub fn printed_name(self) -> String {
        let card = self.card();
        if Furnishing::all().filter(|t| t.card().name == card.name).count() < 2 {
            return card.name.to_owned();
        }
        let cost: Vec<String> = card.cost.iter().map(|(g, n)| format!("{n} {}", g.id())).collect();
        format!("{} ({})", card.name, cost.join(", "))
    }

    /// What the tile costs and scores, as printed: `"4 wood, 3 stone · 3 points"`.
    pub fn cost_and_points(self) -> String {
        let card = self.card();
        let cost: Vec<String> = card.cost.iter().map(|(g, n)| format!("{n} {}", g.id())).collect();
        let cost = if cost.is_empty() { "free".to_owned() } else { cost.join(", ") };
        format!("{cost} · {} point{}", card.points, if card.points == 1 { "" } else { "s" })
    }

    pub fn all() -> impl Iterator<Item = Furnishing> {
        CATALOGUE.iter().map(|c| c.tile)
    }

    pub fn from_id(id: &str) -> Option<Furnishing> {
        CATALOGUE.iter().find(|c| c.id == id).map(|c| c.tile)
    }

    pub fn is_dwelling(self) -> bool {
        self.card().family == Family::Dwelling
    }

    /// Room for dwarfs this dwelling gives (`docs/rules/caverna-reference.md` F.2); the Additional dwelling's room
    /// exists only once its owner has five dwarfs, which [`crate::family`] accounts for.
    pub fn dwarf_rooms(self) -> u32 {
        match self {
            Furnishing::CoupleDwelling => 2,
            t if t.is_dwelling() => 1,
            _ => 0,
        }
    }

    /// Only `dwelling` has copies enough to be built any number of times (`docs/rules/caverna-reference.md` E).
    pub fn is_unique(self) -> bool {
        self != Furnishing::Dwelling
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_is_indexed_by_tile_and_has_48_distinct_ids() {
        for (i, card) in CATALOGUE.iter().enumerate() {
            assert_eq!(card.tile as usize, i, "{}", card.id);
            assert_eq!(serde_json::to_string(&card.tile).unwrap(), format!("\"{}\"", card.id));
        }
        let mut ids: Vec<_> = CATALOGUE.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 48);
    }

    /// `docs/rules/caverna-reference.md` H.21: BGA's beginner flags give 27 introductory tiles, 3 of them dwellings.
    #[test]
    fn h21_introductory_set_has_27_tiles() {
        assert_eq!(CATALOGUE.iter().filter(|c| c.intro).count(), 27);
        assert_eq!(CATALOGUE.iter().filter(|c| c.intro && c.family == Family::Dwelling).count(), 3);
    }

    #[test]
    fn e_bonus_family_has_18_yellow_tiles() {
        assert_eq!(CATALOGUE.iter().filter(|c| c.family == Family::Bonus).count(), 18);
    }
}
