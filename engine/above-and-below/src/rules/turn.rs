//! Entry dispatch and turn order (`docs/rules/above-and-below.md` D.2, F.1, F.9; LOG-FORMAT "Entries"): whose turn
//! it is, passing, forced passes (which a log may omit), the free actions before an action,
//! and where `round_end`, `store` and `declare` may stand.

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::game::{Game, Phase};
use crate::ids::Item;
use crate::notation::{Action, CatDie, Entry, Free, TurnCredit};

use super::{build, end_of_game, explore, harvest, income, labor, market, recruit, reputation, storage, villagers};

/// Per-turn bookkeeping for the free actions (D.8.3: one refresh per turn).
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnCtx {
    pub refreshed: bool,
}

/// Applies one entry.
pub fn apply(game: &mut Game, entry: &Entry) -> RuleResult {
    match entry {
        Entry::Store { player, goods } => {
            let p = game.seat(*player)?;
            storage::store(game, p, goods)
        }
        Entry::RoundEnd { villagers, rest } => {
            forced_passes(game, None);
            match game.phase {
                Phase::RoundEnd => income::end_round(game, villagers.as_deref(), rest),
                Phase::Actions => fail(
                    ErrorCode::Sequence,
                    format!("round_end before every player passed ({} is to act)", game.seat_name(game.current)),
                ),
                Phase::Over => {
                    fail(ErrorCode::Sequence, "round_end after round 7: the game ends without one (F.2, H.3)")
                }
            }
        }
        Entry::Declare { player, card, vp } => {
            let p = game.seat(*player)?;
            // A declaration is never the player's turn: like a round_end, it lets every omitted
            // forced pass happen first, including the declaring player's own (the last pass of
            // round 7 may be theirs).
            forced_passes(game, None);
            ensure(game.phase == Phase::Over, ErrorCode::Sequence, || {
                "declare is only allowed after round 7 (F.9)".into()
            })?;
            end_of_game::declare(game, p, card, *vp)
        }
        Entry::Turn { player, free, cat_fails, action, custom } => {
            let p = open_turn(game, *player)?;
            turn(game, p, free, cat_fails, action.as_ref(), custom)
        }
        Entry::Pass { player, free } => {
            let p = open_turn(game, *player)?;
            let mut ctx = TurnCtx::default();
            for f in free {
                free_action(game, p, f, &mut ctx)?;
            }
            pass(game);
            Ok(())
        }
    }
}

/// Runs what comes before a `turn` or `pass` of `player`: an end of round with its defaults
/// when the round is over, and forced passes of players who cannot act (D.2.3).
fn open_turn(game: &mut Game, player: u64) -> RuleResult<usize> {
    let p = game.seat(player)?;
    loop {
        forced_passes(game, Some(p));
        match game.phase {
            Phase::RoundEnd => income::end_round(game, None, &[])?,
            Phase::Over => {
                return fail(ErrorCode::Sequence, "round 7 is over: only store and declare entries may follow (F.9)")
            }
            Phase::Actions => break,
        }
    }
    ensure(!game.passed[p], ErrorCode::Passed, || format!("{} has passed this round (D.2.4)", game.seat_name(p)))?;
    ensure(game.current == p, ErrorCode::NotYourTurn, || {
        format!("{} is to act, not {} (D.2.1)", game.seat_name(game.current), game.seat_name(p))
    })?;
    Ok(p)
}

/// LOG-FORMAT: a forced pass may be omitted. While the player to act has no ready villager and
/// the next entry is not theirs (`next` = the entry's player, `None` for none), they pass.
pub fn forced_passes(game: &mut Game, next: Option<usize>) {
    while game.phase == Phase::Actions && next != Some(game.current) && !game.players[game.current].has_ready() {
        pass(game);
    }
}

/// The player to act passes (D.2.4); the last pass ends the round (F.1) or the game (F.2).
pub fn pass(game: &mut Game) {
    game.passed[game.current] = true;
    if game.passed.iter().all(|p| *p) {
        game.phase = if game.round >= 7 { Phase::Over } else { Phase::RoundEnd };
    } else {
        advance(game);
    }
}

/// D.2.1: the next player clockwise who has not passed.
fn advance(game: &mut Game) {
    let n = game.players.len();
    for step in 1..=n {
        let seat = (game.current + step) % n;
        if !game.passed[seat] {
            game.current = seat;
            return;
        }
    }
}

/// A `turn` entry: free actions, custom credits, Cave Cat failures, then one action or none.
fn turn(
    game: &mut Game,
    p: usize,
    free: &[Free],
    cat_fails: &[CatDie],
    action: Option<&Action>,
    custom: &[TurnCredit],
) -> RuleResult {
    ensure(game.players[p].has_ready(), ErrorCode::MustPass, || {
        format!("{} has no ready villager and must pass (D.2.3)", game.seat_name(p))
    })?;
    let mut ctx = TurnCtx::default();
    for f in free {
        free_action(game, p, f, &mut ctx)?;
    }
    for credit in custom {
        turn_credit(game, p, credit)?;
    }
    villagers::cat_fails(game, p, cat_fails)?;
    match action {
        None if cat_fails.is_empty() => {
            return fail(ErrorCode::Format, "a turn needs an `action` unless it has `cat_fails` (D.2.6)")
        }
        None => {}
        Some(Action::Labor { villagers, cat_rolls }) => labor::labor(game, p, villagers, cat_rolls)?,
        Some(Action::Harvest { villagers, take, cat_rolls }) => harvest::harvest(game, p, villagers, take, cat_rolls)?,
        Some(Action::Build { villager, card, cave, pay, refill, custom, cat_rolls }) => build::build(
            game,
            p,
            &build::BuildOrder {
                villager,
                card,
                cave: cave.as_deref(),
                pay: *pay,
                refill: refill.as_deref(),
                custom,
                cat_rolls,
            },
        )?,
        Some(Action::Train { villager, slot, recruit, pay, custom, cat_rolls }) => recruit::train(
            game,
            p,
            &recruit::TrainOrder { villager, slot: *slot, recruit: recruit.as_deref(), pay: *pay, custom, cat_rolls },
        )?,
        Some(Action::Explore { party, cat_rolls, cave, die, rolls, rerolls, step }) => explore::explore(
            game,
            p,
            &explore::ExploreOrder {
                party,
                cat_rolls,
                cave: cave.as_deref(),
                die: *die,
                rolls: rolls.as_deref(),
                rerolls,
                step,
            },
        )?,
    }
    advance_after_turn(game);
    Ok(())
}

/// After a turn, the next player who has not passed is to act.
fn advance_after_turn(game: &mut Game) {
    advance(game);
}

/// D.8: a free action, in the player's own turn before the action or the pass.
fn free_action(game: &mut Game, p: usize, f: &Free, ctx: &mut TurnCtx) -> RuleResult {
    match f {
        Free::Offer { item } => market::offer(game, p, *item),
        Free::Buy { from, price } => market::buy(game, p, *from, *price),
        Free::Refresh { row, drawn, pay } => market::refresh(game, p, row, drawn.as_deref(), *pay, ctx),
        Free::Store { goods } => storage::store(game, p, goods),
    }
}

/// B.4: a trusted custom credit outside an action.
fn turn_credit(game: &mut Game, p: usize, c: &TurnCredit) -> RuleResult {
    game.check_custom_card(p, &c.card)?;
    let coins = u64::from(c.coins.unwrap_or(0));
    let potions = u64::from(c.potions.unwrap_or(0));
    let cider = u64::from(c.cider.unwrap_or(0));
    let pl = &mut game.players[p];
    pl.coins = pl.coins.saturating_add(coins);
    pl.potions = pl.potions.saturating_add(potions);
    pl.cider = pl.cider.saturating_add(cider);
    for g in c.goods.iter().flatten() {
        let slot = pl.reserve_mut(Item::Good(*g));
        *slot = slot.saturating_add(1);
    }
    let t = &mut pl.trust;
    t.custom_credits += 1;
    t.credit_coins += coins;
    t.credit_potions += potions;
    t.credit_cider += cider;
    t.credit_goods += c.goods.as_ref().map_or(0, |g| g.len() as u64);
    if let Some(r) = c.reputation {
        let moved = reputation::gain(game, p, i64::from(r));
        game.players[p].trust.credit_reputation += moved;
    }
    Ok(())
}
