//! Council chamber (`docs/rules/village.md` D.5, A.6, G.8, H.16, H.36): enter stage 1, advance one stage,
//! or use a privilege only; privileges of stages 1–4.

use super::payment::{can_pay, pay, pay_coins, Cost, Deaths};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc};
use crate::ids::Cube;
use crate::notation::{MemberRef, Pay, Privilege};

/// The move cost's cubes or scroll (A.6): 2 green or 1 scroll.
fn move_cost(how: Option<Pay>) -> RuleResult<Cost> {
    match how {
        Some(Pay::Green) => Ok(Cost::cube(Cube::Green, 2)),
        Some(Pay::Scroll) => Ok(Cost::default().good(crate::ids::Good::Scroll, 1)),
        Some(other) => {
            fail(ErrorCode::CannotPay, format!("council moves are paid with `green` or `scroll`, not `{other:?}`"))
        }
        None => {
            fail(ErrorCode::CannotPay, "`pay` (`green` or `scroll`) is required to enter or advance (RULES.md D.5)")
        }
    }
}

/// The highest council stage a player's members occupy.
pub fn highest_stage(game: &Game, p: usize) -> Option<u8> {
    game.players[p]
        .members
        .iter()
        .filter_map(|m| match m.loc {
            Loc::Council(s) => Some(s),
            _ => None,
        })
        .max()
}

/// The council action.
pub fn council(
    game: &mut Game,
    p: usize,
    enter: Option<&MemberRef>,
    advance: Option<&MemberRef>,
    how: Option<Pay>,
    privilege: Option<&Privilege>,
    coin_for: &[Cube],
) -> RuleResult {
    let reached = match (enter, advance) {
        (Some(_), Some(_)) => {
            return fail(ErrorCode::BadPrivilege, "`enter` and `advance` exclude each other (RULES.md D.5)")
        }
        (Some(r), None) => {
            let loc = game.member(p, r)?;
            if loc != Loc::Farm {
                return fail(
                    ErrorCode::MemberNotFound,
                    "a member enters the council chamber from the farm (RULES.md G.8.1)",
                );
            }
            pay(game, p, &move_cost(how)?.plus_time(1), coin_for, Deaths::EndOfTurn)?;
            game.players[p].relocate(r.gen, Loc::Farm, Loc::Council(1));
            1
        }
        (None, Some(r)) => {
            let loc = game.member(p, r)?;
            let Loc::Council(s) = loc else {
                return fail(
                    ErrorCode::MemberNotFound,
                    "`advance` names a member on the council track (RULES.md G.8.2)",
                );
            };
            if s >= 4 {
                return fail(ErrorCode::CouncilStageMax, "the member is on stage 4, the last (RULES.md G.8.2)");
            }
            let t = game.components().council_time(s + 1)?;
            pay(game, p, &move_cost(how)?.plus_time(u64::from(t)), coin_for, Deaths::EndOfTurn)?;
            game.players[p].relocate(r.gen, loc, Loc::Council(s + 1));
            s + 1
        }
        (None, None) => {
            if how.is_some() || !coin_for.is_empty() {
                return fail(
                    ErrorCode::BadPrivilege,
                    "a privilege alone costs no move: no `pay` or `coin_for` (RULES.md D.5)",
                );
            }
            let Some(top) = highest_stage(game, p) else {
                return fail(
                    ErrorCode::NoCouncilMember,
                    format!("{} has no member on the council track (RULES.md G.8.3)", game.seat_name(p)),
                );
            };
            if privilege.is_none() {
                return fail(
                    ErrorCode::BadPrivilege,
                    "a council action without a move names a `privilege` (RULES.md G.8.3)",
                );
            }
            top
        }
    };
    match privilege {
        Some(pr) => take_privilege(game, p, pr, reached),
        None => Ok(()),
    }
}

/// Takes a privilege of a stage ≤ `reached` (A.6, G.8.3, G.8.4, H.17).
fn take_privilege(game: &mut Game, p: usize, pr: &Privilege, reached: u8) -> RuleResult {
    if !(1..=4).contains(&pr.stage) {
        return fail(ErrorCode::BadPrivilege, format!("privilege stage {}; stages are 1–4", pr.stage));
    }
    if pr.stage > reached {
        return fail(
            ErrorCode::PrivilegeTooHigh,
            format!("privilege of stage {} above the stage reached, {reached} (RULES.md G.8.3)", pr.stage),
        );
    }
    let extra = match pr.stage {
        2 => pr.good.is_some(),
        3 => pr.cubes.is_some(),
        _ => pr.good.is_some() || pr.cubes.is_some(),
    };
    if extra {
        return fail(ErrorCode::BadPrivilege, format!("the stage-{} privilege takes no such parameter", pr.stage));
    }
    match pr.stage {
        1 => {
            // The token only if it is still on the council chamber (A.6); in solo it is a coin
            // until the next round (F.1, H.34).
            if game.next_first.is_none() {
                game.next_first = Some(p);
                if game.is_solo() {
                    game.players[p].token = true;
                }
            }
        }
        2 => {
            let Some(cubes) = &pr.cubes else {
                return fail(ErrorCode::BadPrivilege, "the stage-2 privilege names 2 influence colours in `cubes`");
            };
            take_from_supply(game, p, cubes, ErrorCode::BadPrivilege)?;
        }
        3 => {
            let Some(g) = pr.good else {
                return fail(ErrorCode::BadPrivilege, "the stage-3 privilege names a `good`");
            };
            game.players[p].goods[g.index()] += 1;
        }
        _ => {
            can_pay(game, p, &Cost { coins: 1, ..Cost::default() }, &[])?;
            pay_coins(game, p, 1);
            game.players[p].track.council += 3;
        }
    }
    Ok(())
}

/// "2 influence cubes of your choice from the supply" (H.17): influence colours only; when the
/// supply holds fewer than 2, exactly what is left (G.4.3). A count other than 2 while the
/// supply holds 2 is the action's own fault, `wrong_count` (G.8.4 `bad_privilege`, G.9.3
/// `bad_reward`), not the supply's.
pub fn take_from_supply(game: &mut Game, p: usize, cubes: &[Cube], wrong_count: ErrorCode) -> RuleResult {
    if let Some(c) = cubes.iter().find(|c| !c.is_influence()) {
        return fail(ErrorCode::BadPrivilege, format!("`{c}` is not an influence colour (RULES.md H.17)"));
    }
    let available: u32 = Cube::INFLUENCE.iter().map(|&c| game.supply.get(c)).sum();
    let due = available.min(2) as usize;
    if cubes.len() != due {
        let (code, rule) = if due == 2 { (wrong_count, "G.8.4, G.9.3") } else { (ErrorCode::SupplyEmpty, "G.4.3") };
        return fail(code, format!("{} cubes named; {due} are due from the supply (RULES.md {rule})", cubes.len()));
    }
    for &c in cubes {
        if !game.supply.take(c, 1) {
            return fail(ErrorCode::SupplyEmpty, format!("the supply has no `{c}` cube left (RULES.md G.4.3)"));
        }
        game.players[p].cubes.add(c, 1);
    }
    Ok(())
}
