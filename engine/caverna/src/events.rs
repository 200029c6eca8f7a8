//! What happened in a game, as facts for storage and statistics: the engine records them while
//! it applies the rules, so no second implementation of the rules is ever needed to know them.

use serde::Serialize;

use crate::action_space::ActionSpace;
use crate::board::Coord;
use crate::furnishing::Furnishing;
use crate::notation::LootItem;

/// How a furnishing tile came to be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "space")]
pub enum Via {
    /// Furnished with an action space (the space used, even when imitated).
    Space(ActionSpace),
    /// Furnished as expedition loot.
    Loot,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A dwarf used an action space (`imitated`: the space copied through an Imitation space).
    Placed {
        player: usize,
        round: u8,
        space: ActionSpace,
        dwarf: usize,
        imitated: Option<ActionSpace>,
    },
    Furnished {
        player: usize,
        round: u8,
        tile: Furnishing,
        at: Coord,
        via: Via,
    },
    Forged {
        player: usize,
        round: u8,
        dwarf: usize,
        strength: u8,
    },
    Expedition {
        player: usize,
        round: u8,
        dwarf: usize,
        level: usize,
        strength: u8,
        loot: Vec<LootItem>,
    },
}

/// What the rules are executing right now, so that facts can say how something happened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Doing {
    pub space: Option<ActionSpace>,
    pub loot: bool,
}
