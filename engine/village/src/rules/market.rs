//! Market day (`docs/rules/village.md` D.4, G.7, H.3, H.12, H.24, H.25): sequences of sales clockwise
//! from the trigger, the extra green + 1 time, Carla's sale, and the refill.

use std::collections::VecDeque;

use super::payment::{can_pay, pay, Cost, Deaths};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, MarketDay, Task};
use crate::ids::{Cube, Customer};
use crate::notation::Who;

/// Opens a market day started by `trigger` (a seat, or Carla's reaction, F.4).
pub fn open(game: &mut Game, trigger: Who) {
    let n = game.player_count();
    let queue: VecDeque<Who> = match (trigger, game.is_solo()) {
        (Who::Carla, _) => [Who::Carla, Who::Seat(0)].into(),
        (Who::Seat(_), true) => [Who::Seat(0), Who::Carla].into(),
        (Who::Seat(m), false) => (0..n).map(|k| Who::Seat((m + k) % n)).collect(),
    };
    game.market_day = Some(MarketDay {
        trigger,
        passed: vec![false; n],
        queue,
        trigger_sold: false,
        any_sale: false,
        turn_player: game.turn_player,
    });
    game.tasks.push(Task::MarketDay);
}

/// The cost of serving a customer: its wants, plus the extra green and 1 time except for
/// the trigger's first sale (D.4).
pub fn sale_cost(game: &Game, p: usize, c: Customer) -> RuleResult<Cost> {
    let data = game.components().customer(c)?;
    let mut cost = Cost::default();
    for &(item, k) in &data.wants {
        match item.good() {
            Some(g) => cost.goods[g.index()] += k,
            None => cost.grain += k,
        }
    }
    let free = game.market_day.as_ref().is_some_and(|d| d.trigger == Who::Seat(p) && !d.trigger_sold);
    if !free {
        cost.cubes.add(Cube::Green, 1);
        cost.time += 1;
    }
    Ok(cost)
}

/// Whether a player has a legal sale now (LOG-FORMAT: otherwise the pass is automatic).
pub fn has_legal_sale(game: &Game, p: usize) -> RuleResult<bool> {
    for c in game.market.available() {
        let cost = sale_cost(game, p, c)?;
        let green_short = cost.cubes.get(Cube::Green) > game.players[p].cubes.get(Cube::Green);
        let coin_for: &[Cube] = if green_short { &[Cube::Green] } else { &[] };
        if can_pay(game, p, &cost, coin_for).is_ok() {
            return Ok(true);
        }
    }
    Ok(false)
}

fn day(game: &mut Game) -> RuleResult<&mut MarketDay> {
    game.market_day
        .as_mut()
        .ok_or_else(|| crate::error::RuleError::new(ErrorCode::NoMarketDay, "no market day is open"))
}

/// Checks that `who` decides now (G.7.2).
fn check_turn(game: &Game, who: Who) -> RuleResult {
    let Some(d) = &game.market_day else {
        return fail(ErrorCode::NoMarketDay, "no market day is open (RULES.md G.7.1)");
    };
    if d.queue.front() == Some(&who) {
        return Ok(());
    }
    if let Who::Seat(p) = who {
        if d.passed.get(p).copied().unwrap_or(false) {
            return fail(
                ErrorCode::AlreadyPassed,
                format!("{} has passed for this market day (RULES.md G.7.2)", game.seat_name(p)),
            );
        }
    }
    let next = match d.queue.front() {
        Some(&Who::Seat(q)) => game.seat_name(q),
        Some(Who::Carla) => "Carla".to_owned(),
        None => "nobody".to_owned(),
    };
    fail(ErrorCode::NotYourMarketTurn, format!("{next} decides next in this market day (RULES.md D.4, G.7.2)"))
}

/// A player's sale (G.7.3, G.7.4).
pub fn sale(game: &mut Game, p: usize, c: Customer, coin_for: &[Cube]) -> RuleResult {
    check_turn(game, Who::Seat(p))?;
    let Some(stall) = game.market.stalls.iter().position(|s| *s == Some(c)) else {
        return fail(ErrorCode::CustomerNotAvailable, format!("customer {c} is not in a stall (RULES.md G.7.3)"));
    };
    let cost = sale_cost(game, p, c)?;
    pay(game, p, &cost, coin_for, Deaths::Immediate)?;
    game.market.stalls[stall] = None;
    game.players[p].customers.push(c);
    let d = day(game)?;
    if d.trigger == Who::Seat(p) {
        d.trigger_sold = true;
    }
    d.any_sale = true;
    d.queue.pop_front();
    Ok(())
}

/// A pass, final for this market day (H.12).
pub fn pass(game: &mut Game, p: usize) -> RuleResult {
    check_turn(game, Who::Seat(p))?;
    let d = day(game)?;
    d.passed[p] = true;
    d.queue.pop_front();
    Ok(())
}

/// The customer Carla serves now: the lowest stall holding one (F.4, H.24).
pub fn carla_customer(game: &Game) -> Option<Customer> {
    game.market.available().next()
}

/// Carla's sale (F.4), checked against a written one (G.7.5).
pub fn carla_sale(game: &mut Game, written: Option<Customer>) -> RuleResult {
    check_turn(game, Who::Carla)?;
    let due = carla_customer(game);
    if let Some(w) = written {
        if Some(w) != due {
            let due = due.map_or_else(|| "none".to_owned(), |c| c.to_string());
            return fail(
                ErrorCode::CarlaSaleWrong,
                format!("Carla serves the first available customer, {due} (RULES.md F.4)"),
            );
        }
    }
    if let Some(c) = due {
        if let Some(slot) = game.market.stalls.iter_mut().find(|s| **s == Some(c)) {
            *slot = None;
        }
        if let Some(carla) = &mut game.carla {
            carla.served.push(c);
        }
        day(game)?.any_sale = true;
    }
    day(game)?.queue.pop_front();
    Ok(())
}

/// Moves the market day on when nobody is queued: a new sequence, or the end of the day with
/// the refill's first two steps (H.3). Called with the day's task on top.
pub fn step(game: &mut Game) {
    let n = game.player_count();
    let Some(d) = &mut game.market_day else {
        game.tasks.pop();
        return;
    };
    let stalls_empty = game.market.stalls.iter().all(Option::is_none);
    if !d.queue.is_empty() && !stalls_empty {
        return;
    }
    if !stalls_empty {
        let start = match d.trigger {
            Who::Seat(m) => m,
            Who::Carla => 0,
        };
        d.queue = (0..n).map(|k| (start + k) % n).filter(|&q| !d.passed[q]).map(Who::Seat).collect();
        if !d.queue.is_empty() {
            return;
        }
    }
    let any_sale = d.any_sale;
    game.market_day = None;
    game.tasks.pop();
    if any_sale {
        slide(game);
        if refill_count(game) > 0 {
            game.tasks.push(Task::Refill);
        }
    }
}

/// Refill steps 1–2 (D.4, H.3): empty stalls, lowest first, take queue tiles from the head;
/// the queue closes up in order.
fn slide(game: &mut Game) {
    let m = &mut game.market;
    let mut waiting: VecDeque<Customer> = m.queue.iter().flatten().copied().collect();
    for s in &mut m.stalls {
        if s.is_none() {
            *s = waiting.pop_front();
        }
    }
    let len = m.queue.len();
    m.queue = waiting.into_iter().map(Some).collect();
    m.queue.resize(len, None);
}

/// Tiles the refill draws: the empty queue spaces, or the rest of the pile (G.7.6).
pub fn refill_count(game: &Game) -> usize {
    let empty = game.market.queue.iter().filter(|q| q.is_none()).count();
    empty.min(game.market.pile.len())
}

/// Refill step 3 with the tiles drawn (R.4): seeded, the pile's top; otherwise tiles never
/// shown before (G.7.6).
pub fn refill(game: &mut Game, tiles: Option<&[Customer]>) -> RuleResult {
    let count = refill_count(game);
    let drawn: Vec<Customer> = if game.market.pile_known {
        let top: Vec<Customer> = game.market.pile.iter().take(count).copied().collect();
        if let Some(t) = tiles {
            if t.len() != count {
                return fail(
                    ErrorCode::RefillCount,
                    format!("{} tiles; the refill draws {count} (RULES.md G.7.6)", t.len()),
                );
            }
            if t != top.as_slice() {
                return fail(ErrorCode::SeedMismatch, format!("the seeded pile gives {top:?} (RULES.md G.14.1)"));
            }
        }
        game.market.pile.drain(..count);
        top
    } else {
        let Some(t) = tiles else {
            return fail(ErrorCode::ExpectedEntry, format!("a `refill` of {count} tiles is due (RULES.md G.3.9)"));
        };
        if t.len() != count {
            return fail(
                ErrorCode::RefillCount,
                format!("{} tiles; the refill draws {count} (RULES.md G.7.6)", t.len()),
            );
        }
        for (i, c) in t.iter().enumerate() {
            if t[..i].contains(c) || !game.market.pile.contains(c) {
                return fail(ErrorCode::CustomerNotInPile, format!("customer {c} is not in the pile (RULES.md G.7.6)"));
            }
        }
        game.market.pile.retain(|c| !t.contains(c));
        t.to_vec()
    };
    let mut drawn = drawn.into_iter();
    for q in &mut game.market.queue {
        if q.is_none() {
            *q = drawn.next();
        }
    }
    Ok(())
}
