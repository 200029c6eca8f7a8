//! Crafts (`docs/rules/village.md` D.3, A.5, G.6, H.4, H.5): one good at a building, with time (a trained
//! member, trained now if need be) or with the building's price; 2 coins at the mill.

use super::payment::{pay, Cost, Deaths};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc};
use crate::ids::{Building, Cube, Good};
use crate::notation::{MemberRef, Pay};

/// The good a building makes; the stables ask which (G.6.1).
fn good_of(b: Building, good: Option<Good>) -> RuleResult<Good> {
    let made = match b {
        Building::Wainwright => Good::Wagon,
        Building::Office => Good::Scroll,
        Building::Blacksmith => Good::Plough,
        Building::Stables => match good {
            Some(g @ (Good::Horse | Good::Ox)) => return Ok(g),
            Some(g) => {
                return fail(ErrorCode::BadGood, format!("the stables make a horse or an ox, not a {g} (RULES.md A.5)"))
            }
            None => return fail(ErrorCode::BadGood, "the stables need `good`: `horse` or `ox` (RULES.md D.3)"),
        },
        Building::Mill => return fail(ErrorCode::BadGood, "the mill makes coins, not goods"),
    };
    match good {
        Some(g) if g != made => fail(ErrorCode::BadGood, format!("the {b} makes a {made}, not a {g} (RULES.md A.5)")),
        _ => Ok(made),
    }
}

/// The price instead of time (A.5 column b).
pub fn price(b: Building) -> Cost {
    match b {
        Building::Wainwright | Building::Blacksmith => {
            let mut c = Cost::cube(Cube::Orange, 1);
            c.cubes.add(Cube::Pink, 1);
            c
        }
        Building::Office => Cost::cube(Cube::Pink, 1),
        Building::Stables => Cost { grain: 3, ..Cost::default() },
        Building::Mill => Cost { grain: 2, time: 2, ..Cost::default() },
    }
}

/// The crafts action.
pub fn craft(
    game: &mut Game,
    p: usize,
    b: Building,
    good: Option<Good>,
    how: Option<Pay>,
    train: Option<&MemberRef>,
    coin_for: &[Cube],
) -> RuleResult {
    if b == Building::Mill {
        if how.is_some() || train.is_some() {
            return fail(
                ErrorCode::BadCraft,
                "the mill takes neither `pay` nor `train`: 2 time and 2 grain (RULES.md G.6.3)",
            );
        }
        if let Some(g) = good {
            return fail(ErrorCode::BadGood, format!("the mill makes 2 coins, not a {g}"));
        }
        pay(game, p, &price(b), coin_for, Deaths::EndOfTurn)?;
        game.players[p].coins += 2;
        return Ok(());
    }
    let made = good_of(b, good)?;
    match how {
        Some(Pay::Price) => {
            if train.is_some() {
                return fail(ErrorCode::BadCraft, "`train` goes only with `pay: \"time\"` (RULES.md G.6.3)");
            }
            pay(game, p, &price(b), coin_for, Deaths::EndOfTurn)?;
        }
        Some(Pay::Time) => {
            if let Some(r) = train {
                let loc = game.member(p, r)?;
                if loc != Loc::Farm {
                    return fail(ErrorCode::MemberNotFound, "a member is trained from the farm (RULES.md D.3)");
                }
                let t = game.components().training(b)?;
                game.players[p].relocate(r.gen, Loc::Farm, Loc::Craft(b));
                pay(game, p, &Cost::time(u64::from(t)), coin_for, Deaths::EndOfTurn)?;
            } else if !game.players[p].any_at(Loc::Craft(b)) {
                return fail(
                    ErrorCode::NotTrained,
                    format!("{} has no member at the {b}; train one with `train` (RULES.md D.3)", game.seat_name(p)),
                );
            }
            pay(game, p, &Cost::time(u64::from(b.production_time())), coin_for, Deaths::EndOfTurn)?;
        }
        Some(other) => {
            return fail(ErrorCode::BadCraft, format!("crafts are paid with `time` or `price`, not `{other:?}`"))
        }
        None => {
            return fail(ErrorCode::BadCraft, "`pay` (`time` or `price`) is required at every building but the mill")
        }
    }
    game.players[p].goods[made.index()] += 1;
    Ok(())
}
