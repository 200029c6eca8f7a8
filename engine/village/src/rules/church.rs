//! Church (`docs/rules/village.md` D.7, G.10.1): a member from the farm into the black bag for 1 brown
//! (or a coin) or 3 time.

use super::payment::{pay, Cost, Deaths};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc};
use crate::ids::Cube;
use crate::notation::{MemberRef, Pay};

pub fn church(game: &mut Game, p: usize, member: &MemberRef, how: Pay, coin_for: &[Cube]) -> RuleResult {
    let loc = game.member(p, member)?;
    if loc != Loc::Farm {
        return fail(ErrorCode::MemberNotFound, "the church takes a member from the farm (RULES.md D.7)");
    }
    let cost = match how {
        Pay::Brown => Cost::cube(Cube::Brown, 1),
        Pay::Time => Cost::time(3),
        other => {
            return fail(ErrorCode::CannotPay, format!("the church is paid with `brown` or `time`, not `{other:?}`"))
        }
    };
    pay(game, p, &cost, coin_for, Deaths::EndOfTurn)?;
    game.players[p].relocate(member.gen, Loc::Farm, Loc::Bag);
    Ok(())
}
