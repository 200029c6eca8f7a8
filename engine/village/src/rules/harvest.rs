//! Grain harvest (`docs/rules/village.md` D.1, G.5.1, H.10).

use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc};
use crate::ids::Good;

/// The most grain a farm holds (S l.337).
pub const MAX_GRAIN: u32 = 5;

/// Grain a harvest yields: 2; 3 with a horse and a plough; 4 with an ox and a plough (only
/// the best combination counts, D.1).
pub fn yield_of(game: &Game, p: usize) -> u32 {
    let pl = &game.players[p];
    let plough = pl.good(Good::Plough) > 0;
    if plough && pl.good(Good::Ox) > 0 {
        4
    } else if plough && pl.good(Good::Horse) > 0 {
        3
    } else {
        2
    }
}

/// Harvests: needs a member on the farm; grain beyond 5 is lost (H.10).
pub fn harvest(game: &mut Game, p: usize) -> RuleResult {
    if !game.players[p].any_at(Loc::Farm) {
        return fail(
            ErrorCode::NoMemberOnFarm,
            format!("{} has no member on the farm to harvest (RULES.md D.1)", game.seat_name(p)),
        );
    }
    let gain = yield_of(game, p);
    let pl = &mut game.players[p];
    pl.grain = (pl.grain + gain).min(MAX_GRAIN);
    Ok(())
}
