//! Family growth and dwelling room (`docs/rules/caverna-reference.md` B.4, E.1, F.2).

use crate::board::Tile;
use crate::error::{ensure, ErrorCode, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::{Player, MAX_DWARFS};

/// Room for dwarfs: entry dwelling 2, couple dwelling 2, other dwellings 1; the Additional
/// dwelling only once its owner has five dwarfs (F.2).
pub fn dwarf_room(p: &Player) -> u32 {
    let dwarfs = p.dwarfs_in_play();
    p.board
        .tiles()
        .map(|(_, t)| match t {
            Tile::EntryDwelling => 2,
            Tile::Furnished { tile: Furnishing::AdditionalDwelling, .. } => u32::from(dwarfs >= 5),
            Tile::Furnished { tile, .. } => tile.dwarf_rooms(),
            _ => 0,
        })
        .sum()
}

/// Most dwarfs this player can have: 5, 6 with the Additional dwelling (E.1).
pub fn max_dwarfs(p: &Player) -> usize {
    MAX_DWARFS + usize::from(p.owns(Furnishing::AdditionalDwelling))
}

/// Family growth: a dwarf from the supply into a free room; it is a newborn this round.
pub fn grow(p: &mut Player) -> RuleResult {
    ensure(p.dwarfs.len() < max_dwarfs(p), ErrorCode::NoRoom, || {
        format!("no dwarf left in your supply ({} in play)", p.dwarfs.len())
    })?;
    ensure(dwarf_room(p) > p.dwarfs_in_play(), ErrorCode::NoRoom, || {
        format!("your dwellings have room for {} dwarfs and you have {}", dwarf_room(p), p.dwarfs.len())
    })?;
    p.add_dwarf();
    Ok(())
}
