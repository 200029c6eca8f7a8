//! Action spaces: which exist for each player count, their replenishment, and the round cards
//! (`docs/rules/caverna-reference.md` B.1–B.3, B.5, B.7, B.8, H.6, H.14).
//!
//! What a space *does* lives in [`crate::rules::placement`]; this file is the printed boards.

use serde::{Deserialize, Serialize};

use crate::goods::{Good, Goods, SpaceGoods};

/// Every action-space id of the log format. Round cards appear here under the id of the space
/// they add; `urgent_wish_for_children` is the flip side of `wish_for_children`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionSpace {
    DriftMining,
    /// The second, 1-stone Drift mining of the 6–7 player board (decision H.14).
    #[serde(rename = "drift_mining_2")]
    DriftMining2,
    Excavation,
    StartingPlayer,
    Logging,
    Supplies,
    Growth,
    OreMining,
    WoodGathering,
    ForestExploration,
    Clearing,
    Sustenance,
    RubyMining,
    Housework,
    SlashAndBurn,
    StripMining,
    Depot,
    SmallScaleDriftMining,
    WeeklyMarket,
    HardwareRental,
    FenceBuilding,
    LargeDepot,
    Extension,
    /// First Imitation space (3–7 players).
    Imitation,
    /// Second Imitation space (5–7 players).
    #[serde(rename = "imitation_2")]
    Imitation2,
    /// Third Imitation space (7 players).
    #[serde(rename = "imitation_3")]
    Imitation3,
    // Round cards (B.3)
    Blacksmithing,
    SheepFarming,
    OreMineConstruction,
    WishForChildren,
    UrgentWishForChildren,
    DonkeyFarming,
    RubyMineConstruction,
    FamilyLife,
    Exploration,
    OreDelivery,
    Adventure,
    OreTrading,
    RubyDelivery,
}

use ActionSpace as A;

impl ActionSpace {
    pub const ALL: [ActionSpace; 39] = [
        A::DriftMining,
        A::DriftMining2,
        A::Excavation,
        A::StartingPlayer,
        A::Logging,
        A::Supplies,
        A::Growth,
        A::OreMining,
        A::WoodGathering,
        A::ForestExploration,
        A::Clearing,
        A::Sustenance,
        A::RubyMining,
        A::Housework,
        A::SlashAndBurn,
        A::StripMining,
        A::Depot,
        A::SmallScaleDriftMining,
        A::WeeklyMarket,
        A::HardwareRental,
        A::FenceBuilding,
        A::LargeDepot,
        A::Extension,
        A::Imitation,
        A::Imitation2,
        A::Imitation3,
        A::Blacksmithing,
        A::SheepFarming,
        A::OreMineConstruction,
        A::WishForChildren,
        A::UrgentWishForChildren,
        A::DonkeyFarming,
        A::RubyMineConstruction,
        A::FamilyLife,
        A::Exploration,
        A::OreDelivery,
        A::Adventure,
        A::OreTrading,
        A::RubyDelivery,
    ];

    /// The log-format id (as serde spells it).
    pub const fn id(self) -> &'static str {
        match self {
            A::DriftMining => "drift_mining",
            A::DriftMining2 => "drift_mining_2",
            A::Excavation => "excavation",
            A::StartingPlayer => "starting_player",
            A::Logging => "logging",
            A::Supplies => "supplies",
            A::Growth => "growth",
            A::OreMining => "ore_mining",
            A::WoodGathering => "wood_gathering",
            A::ForestExploration => "forest_exploration",
            A::Clearing => "clearing",
            A::Sustenance => "sustenance",
            A::RubyMining => "ruby_mining",
            A::Housework => "housework",
            A::SlashAndBurn => "slash_and_burn",
            A::StripMining => "strip_mining",
            A::Depot => "depot",
            A::SmallScaleDriftMining => "small_scale_drift_mining",
            A::WeeklyMarket => "weekly_market",
            A::HardwareRental => "hardware_rental",
            A::FenceBuilding => "fence_building",
            A::LargeDepot => "large_depot",
            A::Extension => "extension",
            A::Imitation => "imitation",
            A::Imitation2 => "imitation_2",
            A::Imitation3 => "imitation_3",
            A::Blacksmithing => "blacksmithing",
            A::SheepFarming => "sheep_farming",
            A::OreMineConstruction => "ore_mine_construction",
            A::WishForChildren => "wish_for_children",
            A::UrgentWishForChildren => "urgent_wish_for_children",
            A::DonkeyFarming => "donkey_farming",
            A::RubyMineConstruction => "ruby_mine_construction",
            A::FamilyLife => "family_life",
            A::Exploration => "exploration",
            A::OreDelivery => "ore_delivery",
            A::Adventure => "adventure",
            A::OreTrading => "ore_trading",
            A::RubyDelivery => "ruby_delivery",
        }
    }

    pub fn from_id(id: &str) -> Option<ActionSpace> {
        ActionSpace::ALL.into_iter().find(|s| s.id() == id)
    }

    pub fn is_imitation(self) -> bool {
        matches!(self, A::Imitation | A::Imitation2 | A::Imitation3)
    }

    /// Food paid to use this Imitation space with `players` players (`docs/rules/caverna-reference.md` B.5).
    pub fn imitation_cost(self, players: usize) -> u32 {
        match (self, players) {
            (A::Imitation, 3) => 4,
            (A::Imitation, 4 | 5) => 2,
            (A::Imitation, 6) => 1,
            (A::Imitation, _) => 0,
            (A::Imitation2, 5) => 4,
            (A::Imitation2, 6) => 2,
            (A::Imitation2, _) => 1,
            (A::Imitation3, _) => 2,
            _ => 0,
        }
    }

    /// Replenishment with `players` players (`docs/rules/caverna-reference.md` B.2/B.3, notation `A (B)`), or `None`
    /// for a space that does not accumulate.
    pub fn replenish(self, players: usize) -> Option<Replenish> {
        self.replenishment(players)
            .map(|(if_empty, otherwise)| Replenish { if_empty: Goods::of(if_empty), otherwise: Goods::of(otherwise) })
    }

    /// [`ActionSpace::replenish`] as lists of goods, `(if empty, otherwise)`: the replenish
    /// step of every round adds them to the spaces one good at a time (looked up in
    /// [`REPLENISHMENT`]).
    pub const fn replenishment(self, players: usize) -> Option<(Added, Added)> {
        let small = players <= 3;
        let r: (Added, Added) = match self {
            A::DriftMining if small => always(&[(Good::Stone, 1)]),
            A::DriftMining => always(&[(Good::Stone, 2)]),
            A::DriftMining2 => always(&[(Good::Stone, 1)]),
            A::Excavation if small => always(&[(Good::Stone, 1)]),
            A::Excavation => (&[(Good::Stone, 2)], &[(Good::Stone, 1)]),
            A::StartingPlayer => always(&[(Good::Food, 1)]),
            A::Logging if small => (&[(Good::Wood, 3)], &[(Good::Wood, 1)]),
            A::Logging => always(&[(Good::Wood, 3)]),
            A::OreMining if small => (&[(Good::Ore, 2)], &[(Good::Ore, 1)]),
            A::OreMining => (&[(Good::Ore, 3)], &[(Good::Ore, 2)]),
            A::WoodGathering => always(&[(Good::Wood, 1)]),
            A::ForestExploration if small => always(&[(Good::Wood, 1)]),
            A::ForestExploration => (&[(Good::Wood, 2)], &[(Good::Wood, 1)]),
            A::Clearing if small => always(&[(Good::Wood, 1)]),
            A::Clearing => always(&[(Good::Wood, 2)]),
            A::Sustenance if small => always(&[(Good::Food, 1)]),
            A::Sustenance => (&[(Good::Grain, 1)], &[(Good::Vegetable, 1)]),
            A::RubyMining => always(&[(Good::Ruby, 1)]),
            A::StripMining => (&[(Good::Ore, 1)], &[(Good::Stone, 1)]),
            A::Depot => always(&[(Good::Wood, 1), (Good::Ore, 1)]),
            A::FenceBuilding if players == 5 => always(&[(Good::Wood, 1)]),
            A::FenceBuilding => (&[(Good::Wood, 2)], &[(Good::Wood, 1)]),
            A::LargeDepot => (
                &[(Good::Stone, 1), (Good::Ore, 1), (Good::Wood, 2)],
                &[(Good::Stone, 1), (Good::Ore, 1), (Good::Wood, 1)],
            ),
            A::SheepFarming => always(&[(Good::Sheep, 1)]),
            A::DonkeyFarming => always(&[(Good::Donkey, 1)]),
            A::OreDelivery => always(&[(Good::Ore, 1), (Good::Stone, 1)]),
            A::RubyDelivery => (&[(Good::Ruby, 2)], &[(Good::Ruby, 1)]),
            _ => return None,
        };
        Some(r)
    }

    /// The printed action spaces (round cards excluded) of a game with `players` players
    /// (`docs/rules/caverna-reference.md` B.1, solo per H.6).
    pub fn printed(players: usize) -> Vec<ActionSpace> {
        const SMALL_BASE: [ActionSpace; 3] = [A::RubyMining, A::Housework, A::SlashAndBurn];
        let mut v: Vec<ActionSpace> = match players {
            1 => vec![A::Excavation, A::Logging, A::OreMining, A::Sustenance, A::WoodGathering],
            2 | 3 => vec![
                A::DriftMining,
                A::Excavation,
                A::StartingPlayer,
                A::Logging,
                A::Supplies,
                A::OreMining,
                A::WoodGathering,
                A::Clearing,
                A::Sustenance,
            ],
            _ => vec![
                A::DriftMining,
                A::Excavation,
                A::StartingPlayer,
                A::Imitation,
                A::Logging,
                A::Growth,
                A::OreMining,
                A::ForestExploration,
                A::Clearing,
                A::Sustenance,
            ],
        };
        v.extend(SMALL_BASE);
        match players {
            3 => v.extend([A::StripMining, A::ForestExploration, A::Imitation]),
            5 => v.extend([
                A::Depot,
                A::SmallScaleDriftMining,
                A::WeeklyMarket,
                A::HardwareRental,
                A::FenceBuilding,
                A::Imitation2,
            ]),
            6 | 7 => {
                v.extend([
                    A::Depot,
                    A::DriftMining2,
                    A::WeeklyMarket,
                    A::HardwareRental,
                    A::FenceBuilding,
                    A::Imitation2,
                ]);
                if players == 7 {
                    v.extend([A::LargeDepot, A::Extension, A::Imitation3]);
                }
            }
            _ => {}
        }
        v
    }
}

/// What a replenish step puts on a space: `if_empty` when it holds nothing, else `otherwise`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replenish {
    pub if_empty: Goods,
    pub otherwise: Goods,
}

/// [`ActionSpace::replenishment`] of every space for 0 to 7 players, indexed
/// `[players][space as usize]`, worked out at compile time as `(if empty, otherwise)` in the
/// form of a space's goods: the replenish step of every round looks each space up here instead
/// of matching on it, and adds all the goods at once ([`SpaceGoods::add_goods`]) instead of
/// one good at a time.
pub static REPLENISHMENT: [[Option<(SpaceGoods, SpaceGoods)>; ActionSpace::ALL.len()]; 8] = {
    let mut table = [[None; ActionSpace::ALL.len()]; 8];
    let mut players = 0;
    while players < 8 {
        let mut i = 0;
        while i < ActionSpace::ALL.len() {
            if let Some((if_empty, otherwise)) = ActionSpace::ALL[i].replenishment(players) {
                table[players][i] = Some((SpaceGoods::of(if_empty), SpaceGoods::of(otherwise)));
            }
            i += 1;
        }
        players += 1;
    }
    table
};

/// The spaces [`REPLENISHMENT`] adds goods to, for 0 to 7 players, one bit per space
/// (`1 << space as usize`): the replenish step walks only these among the spaces on the table
/// (about a third of them), instead of looking every space up.
pub static REPLENISHED: [u64; 8] = {
    let mut masks = [0u64; 8];
    let mut players = 0;
    while players < 8 {
        let mut i = 0;
        while i < ActionSpace::ALL.len() {
            if REPLENISHMENT[players][i].is_some() {
                masks[players] |= 1 << i;
            }
            i += 1;
        }
        players += 1;
    }
    masks
};

/// Goods a replenish step adds to a space, as `(good, count)` pairs.
pub type Added = &'static [(Good, u32)];

/// The same goods whether the space is empty or not.
const fn always(goods: Added) -> (Added, Added) {
    (goods, goods)
}

/// The twelve action-space cards revealed one per round (`docs/rules/caverna-reference.md` B.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundCard {
    Blacksmithing,
    SheepFarming,
    OreMineConstruction,
    WishForChildren,
    DonkeyFarming,
    RubyMineConstruction,
    FamilyLife,
    Exploration,
    OreDelivery,
    Adventure,
    OreTrading,
    RubyDelivery,
}

impl RoundCard {
    pub const ALL: [RoundCard; 12] = [
        RoundCard::Blacksmithing,
        RoundCard::SheepFarming,
        RoundCard::OreMineConstruction,
        RoundCard::WishForChildren,
        RoundCard::DonkeyFarming,
        RoundCard::RubyMineConstruction,
        RoundCard::FamilyLife,
        RoundCard::Exploration,
        RoundCard::OreDelivery,
        RoundCard::Adventure,
        RoundCard::OreTrading,
        RoundCard::RubyDelivery,
    ];

    /// The fixed card order of the solo game (`docs/rules/caverna-reference.md` B.8).
    pub const SOLO_ORDER: [RoundCard; 11] = [
        RoundCard::Blacksmithing,
        RoundCard::SheepFarming,
        RoundCard::OreMineConstruction,
        RoundCard::WishForChildren,
        RoundCard::DonkeyFarming,
        RoundCard::RubyMineConstruction,
        RoundCard::OreDelivery,
        RoundCard::FamilyLife,
        RoundCard::OreTrading,
        RoundCard::Adventure,
        RoundCard::RubyDelivery,
    ];

    /// The stages round cards are revealed in (`docs/rules/caverna-reference.md` B.3).
    pub const STAGES: u8 = 4;

    /// The stage (1–4) of the card (`docs/rules/caverna-reference.md` B.3).
    pub fn stage(self) -> u8 {
        match self {
            RoundCard::Blacksmithing | RoundCard::SheepFarming | RoundCard::OreMineConstruction => 1,
            RoundCard::WishForChildren | RoundCard::DonkeyFarming | RoundCard::RubyMineConstruction => 2,
            RoundCard::FamilyLife | RoundCard::Exploration | RoundCard::OreDelivery => 3,
            RoundCard::Adventure | RoundCard::OreTrading | RoundCard::RubyDelivery => 4,
        }
    }

    pub fn space(self) -> ActionSpace {
        match self {
            RoundCard::Blacksmithing => A::Blacksmithing,
            RoundCard::SheepFarming => A::SheepFarming,
            RoundCard::OreMineConstruction => A::OreMineConstruction,
            RoundCard::WishForChildren => A::WishForChildren,
            RoundCard::DonkeyFarming => A::DonkeyFarming,
            RoundCard::RubyMineConstruction => A::RubyMineConstruction,
            RoundCard::FamilyLife => A::FamilyLife,
            RoundCard::Exploration => A::Exploration,
            RoundCard::OreDelivery => A::OreDelivery,
            RoundCard::Adventure => A::Adventure,
            RoundCard::OreTrading => A::OreTrading,
            RoundCard::RubyDelivery => A::RubyDelivery,
        }
    }

    /// The log-format id (as serde spells it; the same as [`RoundCard::space`]'s id).
    pub fn id(self) -> &'static str {
        match self {
            RoundCard::Blacksmithing => "blacksmithing",
            RoundCard::SheepFarming => "sheep_farming",
            RoundCard::OreMineConstruction => "ore_mine_construction",
            RoundCard::WishForChildren => "wish_for_children",
            RoundCard::DonkeyFarming => "donkey_farming",
            RoundCard::RubyMineConstruction => "ruby_mine_construction",
            RoundCard::FamilyLife => "family_life",
            RoundCard::Exploration => "exploration",
            RoundCard::OreDelivery => "ore_delivery",
            RoundCard::Adventure => "adventure",
            RoundCard::OreTrading => "ore_trading",
            RoundCard::RubyDelivery => "ruby_delivery",
        }
    }

    pub fn from_id(id: &str) -> Option<RoundCard> {
        RoundCard::ALL.into_iter().find(|c| c.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/rules/caverna-reference.md` B.1: the number of printed spaces per player count.
    #[test]
    fn b1_printed_space_counts_per_player_count() {
        let counts: Vec<usize> = (1..=7).map(|n| ActionSpace::printed(n).len()).collect();
        assert_eq!(counts, vec![8, 12, 15, 13, 19, 19, 22]);
    }

    /// `docs/rules/caverna-reference.md` B.5: imitation food costs per player count.
    #[test]
    fn b5_imitation_costs() {
        let table = [(3, vec![4]), (4, vec![2]), (5, vec![2, 4]), (6, vec![1, 2]), (7, vec![0, 1, 2])];
        for (players, costs) in table {
            let got: Vec<u32> = ActionSpace::printed(players)
                .into_iter()
                .filter(|s| s.is_imitation())
                .map(|s| s.imitation_cost(players))
                .collect();
            assert_eq!(got, costs, "{players} players");
        }
    }

    /// Every variant's id is its serde spelling, and `from_id` reads it back.
    #[test]
    fn ids_round_trip() {
        for s in ActionSpace::ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), serde_json::Value::from(s.id()), "{s:?}");
            assert_eq!(serde_json::from_value::<ActionSpace>(s.id().into()).unwrap(), s, "{s:?}");
            assert_eq!(ActionSpace::from_id(s.id()), Some(s));
        }
        let ids: std::collections::BTreeSet<&str> = ActionSpace::ALL.iter().map(|s| s.id()).collect();
        assert_eq!(ids.len(), ActionSpace::ALL.len(), "ALL lists a variant twice");
        assert_eq!(ActionSpace::Imitation2.id(), "imitation_2");
        assert_eq!(ActionSpace::DriftMining2.id(), "drift_mining_2");
        for unknown in ["", "imitation2", "drift_mining2", "Logging", "logging ", "no_such_space"] {
            assert_eq!(ActionSpace::from_id(unknown), None, "{unknown:?}");
        }
    }

    /// Every round card's id is its serde spelling and its space's id, and `from_id` reads it back.
    #[test]
    fn round_card_ids_match_serde() {
        for c in RoundCard::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::Value::from(c.id()), "{c:?}");
            assert_eq!(serde_json::from_value::<RoundCard>(c.id().into()).unwrap(), c, "{c:?}");
            assert_eq!(RoundCard::from_id(c.id()), Some(c));
            assert_eq!(c.id(), c.space().id());
        }
        let ids: std::collections::BTreeSet<&str> = RoundCard::ALL.iter().map(|c| c.id()).collect();
        assert_eq!(ids.len(), RoundCard::ALL.len(), "ALL lists a card twice");
        // A space that is not a round card, and the flip side of a card, are not card ids.
        for unknown in ["", "logging", "urgent_wish_for_children", "Blacksmithing", "no_such_card"] {
            assert_eq!(RoundCard::from_id(unknown), None, "{unknown:?}");
        }
    }
}
