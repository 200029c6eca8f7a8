//! Forging weapons (`docs/rules/caverna-reference.md` B.4, E.3 Blacksmith, H.24).

use crate::error::{ensure, ErrorCode, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::Player;
use crate::goods::Good;

/// Highest strength a weapon can be forged at, and highest it can ever reach (D.1).
pub const MAX_FORGED: u32 = 8;
pub const MAX_STRENGTH: u8 = 14;

/// Ore paid for a weapon of `strength`: the strength, less 2 with a Blacksmith (H.24).
pub fn forge_cost(p: &Player, strength: u32) -> u32 {
    if p.owns(Furnishing::Blacksmith) {
        strength.saturating_sub(2)
    } else {
        strength
    }
}

pub fn forge(p: &mut Player, dwarf: usize, strength: u32) -> RuleResult {
    ensure((1..=MAX_FORGED).contains(&strength), ErrorCode::OutOfRange, || {
        format!("weapon strength {strength}; forging gives 1 to 8")
    })?;
    ensure(p.dwarfs[dwarf].weapon.is_none(), ErrorCode::WeaponRequired, || "this dwarf is already armed".into())?;
    let ore = forge_cost(p, strength);
    ensure(p.supply.get(Good::Ore) >= ore, ErrorCode::InsufficientGoods, || {
        format!("a strength-{strength} weapon costs {ore} ore")
    })?;
    p.supply.set(Good::Ore, p.supply.get(Good::Ore) - ore);
    p.dwarfs[dwarf].weapon = Some(strength as u8);
    Ok(())
}

/// Raises a weapon by `n`, capped at 14.
pub fn strengthen(weapon: &mut Option<u8>, n: u8) {
    if let Some(s) = weapon {
        *s = (*s + n).min(MAX_STRENGTH);
    }
}
