//! The end of a round (`docs/rules/above-and-below.md` F.1–F.8, H.3): round marker, cider, villager row, rest,
//! income, restock and the first-player card. Round 7 never gets here: its last pass ends the
//! game (F.2), so income is received 6 times.

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::game::{Game, Phase};
use crate::notation::{Effect, Rest};

use super::rest;

/// Runs F.1 with the `round_end` entry's choices (`None`/empty: defaults).
pub fn end_round(game: &mut Game, drawn: Option<&[String]>, rests: &[Rest]) -> RuleResult {
    let n = game.players.len();
    // One slot per seat: 2 to 4 (C.1).
    let mut chosen: [Option<&Rest>; 4] = [None; 4];
    for r in rests {
        let seat = usize::try_from(r.player).ok().filter(|s| *s < n && *s < chosen.len());
        let Some(seat) = seat else {
            return fail(ErrorCode::Rest, format!("a rest object's {}", game.no_seat("player", r.player)));
        };
        ensure(chosen[seat].is_none(), ErrorCode::Rest, || format!("two rest objects for {}", game.seat_name(seat)))?;
        chosen[seat] = Some(r);
    }
    // F.2: the marker moves (rounds 1–6 only reach here).
    game.round += 1;
    // F.3
    game.board_cider = true;
    // F.4
    villager_row(game, drawn)?;
    // F.5: players rest simultaneously; each player's rest touches only their village.
    for (p, choice) in chosen.iter().take(n).enumerate() {
        rest::rest(game, p, *choice)?;
    }
    // F.6, F.7
    for p in 0..n {
        income(game, p);
        restock(game, p);
    }
    // F.8
    game.first = (game.first + 1) % n;
    game.current = game.first;
    game.passed.fill(false);
    game.phase = Phase::Actions;
    Ok(())
}

/// F.4: slide left, then draw into the empty slots on the right.
fn villager_row(game: &mut Game, drawn: Option<&[String]>) -> RuleResult {
    let mut row: Vec<Option<String>> = game.villager_row.iter().flatten().cloned().map(Some).collect();
    let seeded = game.seeded();
    let mut taken = 0usize;
    let setup = game.setup.clone();
    while row.len() < 5 {
        if game.decks.villagers.is_empty() {
            row.push(None);
            continue;
        }
        let written = drawn.and_then(|d| d.get(taken)).map(String::as_str);
        if written.is_none() && !seeded {
            return fail(
                ErrorCode::RandomMissing,
                "the villagers drawn into the row at the end of the round are not written (round_end.villagers, F.4)",
            );
        }
        let new_ok = |id: &str| {
            let v = setup.catalogue.villager(id)?;
            ensure(v.kind == crate::notation::VillagerKind::Regular, ErrorCode::Draw, || {
                format!("{id} is not a regular villager")
            })
        };
        let card = game.decks.villagers.draw(written, new_ok)?;
        taken += 1;
        row.push(card);
    }
    if let Some(d) = drawn {
        let code = if seeded { ErrorCode::RandomMismatch } else { ErrorCode::Draw };
        ensure(d.len() == taken, code, || {
            format!("the row takes {taken} new villagers, round_end.villagers lists {}", d.len())
        })?;
    }
    game.villager_row = row;
    Ok(())
}

/// F.6: storage income level + income_coins + income_per_stored; potions from income_potions.
pub fn income(game: &mut Game, p: usize) {
    let level = u64::from(game.setup.board.income_level(game.players[p].storage.len()));
    // One walk over the player's card effects for the three kinds of income.
    let (mut coins, mut per_stored, mut potions) = (0u64, 0u64, 0u64);
    for e in game.effects(p) {
        match e {
            Effect::IncomeCoins { n } => coins += u64::from(*n),
            Effect::IncomePerStored { goods, n } => {
                per_stored += goods.iter().map(|g| game.players[p].stored(*g)).sum::<u64>() * u64::from(*n);
            }
            Effect::IncomePotions { n } => potions += u64::from(*n),
            _ => {}
        }
    }
    let pl = &mut game.players[p];
    pl.coins = pl.coins.saturating_add(level + coins + per_stored);
    pl.potions = pl.potions.saturating_add(potions);
}

/// F.7: every empty card with `goods_refill` gets one token of its good.
pub fn restock(game: &mut Game, p: usize) {
    for card in game.players[p].cards_mut() {
        if card.tokens.is_empty() {
            for e in card.effects.iter() {
                if let Effect::GoodsRefill { good } = e {
                    card.tokens.push(*good);
                }
            }
        }
    }
}
