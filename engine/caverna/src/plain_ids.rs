//! The id tables of the plain reading ([`crate::plain_entries`]): the ids every entry and most
//! actions carry (entry and action kinds, action spaces, furnishings, goods, tile kinds), found
//! by their text in one look-up ([`IdTable`]). Rarer ids are read by their type's own
//! `Deserialize`. `tests` checks every table against the type's own reading.

use chronicle_game::id_table::IdTable;

use crate::action_space::ActionSpace;
use crate::furnishing::{Furnishing, CATALOGUE};
use crate::goods::Good;
use crate::notation::TileKind;
use crate::tag_first::{Do, Kind};

/// The pair (id, value) `pair` makes of each of `all`, in a `const` (`any` fills the array
/// before it is written).
macro_rules! with_ids {
    ($all:expr, $any:expr, |$v:ident| $pair:expr) => {{
        const N: usize = $all.len();
        let mut ids = [("", $any); N];
        let mut i = 0;
        while i < N {
            let $v = $all[i];
            ids[i] = $pair;
            i += 1;
        }
        ids
    }};
}

pub(crate) const KINDS: IdTable<Kind, 16> = IdTable::new(&[
    ("place", Kind::Place),
    ("free", Kind::Free),
    ("harvest_choice", Kind::HarvestChoice),
    ("feed", Kind::Feed),
    ("breed", Kind::Breed),
    ("keep", Kind::Keep),
]);

pub(crate) const DOS: IdTable<Do, 64> = IdTable::new(&[
    ("twin", Do::Twin),
    ("ore_mine", Do::OreMine),
    ("ruby_mine", Do::RubyMine),
    ("furnish", Do::Furnish),
    ("grow", Do::Grow),
    ("sow", Do::Sow),
    ("fence", Do::Fence),
    ("stable", Do::Stable),
    ("forge", Do::Forge),
    ("expedition", Do::Expedition),
    ("trade_ore", Do::TradeOre),
    ("buy", Do::Buy),
    ("gain", Do::Gain),
    ("dog", Do::Dog),
    ("imitate", Do::Imitate),
    ("convert", Do::Convert),
    ("buy_food", Do::BuyFood),
    ("ruby_trade", Do::RubyTrade),
    ("ruby_tile", Do::RubyTile),
    ("use", Do::Use),
    ("release", Do::Release),
]);

pub(crate) const SPACES: IdTable<ActionSpace, 128> =
    IdTable::new(&with_ids!(ActionSpace::ALL, ActionSpace::Logging, |s| (s.id(), s)));

pub(crate) const FURNISHINGS: IdTable<Furnishing, 128> =
    IdTable::new(&with_ids!(CATALOGUE, CATALOGUE[0].tile, |card| (card.id, card.tile)));

pub(crate) const GOODS: IdTable<Good, 32> = IdTable::new(&with_ids!(Good::ALL, Good::Wood, |g| (g.id(), g)));

pub(crate) const TILE_KINDS: IdTable<TileKind, 16> = IdTable::new(&[
    ("cavern", TileKind::Cavern),
    ("tunnel", TileKind::Tunnel),
    ("meadow", TileKind::Meadow),
    ("field", TileKind::Field),
    ("ore_mine", TileKind::OreMine),
    ("deep_tunnel", TileKind::DeepTunnel),
]);

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    use super::*;

    /// Every id of `table` is read by `T`'s own `Deserialize` as the same value, and the table
    /// holds `count` ids (every variant of `T`).
    fn same_as_serde<T: DeserializeOwned + PartialEq + std::fmt::Debug + Copy, const S: usize>(
        table: &IdTable<T, S>,
        count: usize,
    ) {
        for (id, value) in table.ids() {
            assert_eq!(serde_json::from_value::<T>(Value::from(id)).ok(), Some(value), "{id}");
        }
        assert_eq!(table.ids().count(), count);
    }

    /// The tables read every id as the types' own reading does (`docs/log-format.md` "Entries",
    /// "Actions"); a table leaving one out would only send it to the usual reading.
    #[test]
    fn id_tables_are_the_types_own_spellings() {
        same_as_serde(&KINDS, 6);
        same_as_serde(&DOS, 21);
        same_as_serde(&SPACES, ActionSpace::ALL.len());
        same_as_serde(&FURNISHINGS, CATALOGUE.len());
        same_as_serde(&GOODS, Good::ALL.len());
        same_as_serde(&TILE_KINDS, 6);
    }
}
