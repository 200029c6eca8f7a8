//! The rules, one module per family of `docs/rules/village.md`, and the dispatcher that applies a log
//! entry where the game stands ([`apply`]) after running every step that needs neither a
//! decision nor a random outcome ([`run_automatic`]).

pub mod carla;
pub mod church;
pub mod council;
pub mod crafts;
pub mod end_of_game;
pub mod family;
pub mod harvest;
pub mod market;
pub mod mass;
pub mod payment;
pub mod round;
pub mod scoring;
pub mod time_and_death;
pub mod travel;
pub mod turn;
pub mod well;

use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Task};
use crate::notation::{Action, Entry, Who};

/// Performs an action for player `p` (D.1 – D.7).
pub fn perform(game: &mut Game, p: usize, action: &Action) -> RuleResult {
    match action {
        Action::Harvest { coin_for } | Action::Market { coin_for } if !coin_for.is_empty() => {
            fail(ErrorCode::BadCoinSubstitution, "this action's cost holds no influence cube (RULES.md G.4.2)")
        }
        Action::Family { coin_for, .. } if !coin_for.is_empty() => {
            fail(ErrorCode::BadCoinSubstitution, "this action's cost holds no influence cube (RULES.md G.4.2)")
        }
        Action::Harvest { .. } => harvest::harvest(game, p),
        Action::Family { recall, .. } => family::family(game, p, recall.as_ref()),
        Action::Craft { building, good, pay, train, coin_for } => {
            crafts::craft(game, p, *building, *good, *pay, train.as_ref(), coin_for)
        }
        Action::Market { .. } => {
            market::open(game, Who::Seat(p));
            Ok(())
        }
        Action::Council { enter, advance, pay, privilege, coin_for } => {
            council::council(game, p, enter.as_ref(), advance.as_ref(), *pay, privilege.as_ref(), coin_for)
        }
        Action::Travel { member, to, reward, coin_for } => {
            travel::travel(game, p, member, to, reward.as_ref(), coin_for)
        }
        Action::Church { member, pay, coin_for } => church::church(game, p, member, *pay, coin_for),
    }
}

/// Runs the steps at the top of the task stack that need no entry: the end of a turn and
/// its forced bookkeeping, the next turn, the end of a round, Carla's reactions, deaths
/// without a candidate and the moves of a market day. Stops at a decision or a recorded
/// random outcome.
pub fn run_automatic(game: &mut Game) -> RuleResult {
    // Each pass pops or advances a task; the bound only guards against a bug looping.
    for _ in 0..10_000 {
        let Some(top) = game.tasks.last().cloned() else { return Ok(()) };
        match top {
            Task::EndTurn { player, took } => {
                game.tasks.pop();
                time_and_death::end_turn(game, player, took);
            }
            Task::AfterDeaths { player, took } => {
                game.tasks.pop();
                game.tasks.push(Task::Next { player });
                if let Some((c, s)) = took {
                    if game.is_solo() && game.end.is_none() && !game.board_empty() {
                        game.tasks.push(Task::CarlaTake { color: c, space: s });
                    }
                }
            }
            Task::Next { player } => {
                game.tasks.pop();
                game.turn_player = None;
                let n = game.player_count();
                let empty = game.board_empty();
                let next = match &mut game.end {
                    Some(end) => match end.owed.pop_front() {
                        Some(q) => Task::Turn { player: q, last: true },
                        None => Task::Mass { last: true },
                    },
                    None if empty => Task::Mass { last: false },
                    None => Task::Turn { player: (player + 1) % n, last: false },
                };
                game.tasks.push(next);
            }
            Task::CarlaReact { space } => {
                game.tasks.pop();
                carla::react(game, space);
            }
            Task::Death { player } if !time_and_death::can_die(game, player) => {
                game.tasks.pop();
            }
            Task::MarketDay => {
                let before = (game.tasks.len(), game.market_day.as_ref().map(|d| d.queue.len()));
                market::step(game);
                if (game.tasks.len(), game.market_day.as_ref().map(|d| d.queue.len())) == before {
                    return Ok(());
                }
            }
            Task::CarlaTake { color, space } if game.board_empty() => {
                let _ = (color, space);
                game.tasks.pop();
            }
            _ => return Ok(()),
        }
    }
    Ok(())
}

/// Resolves the step at the top without an entry, when the log may omit it: a forced death,
/// an automatic pass, Carla's sale or forced cube, a seeded random outcome. Returns false
/// when the step needs an entry.
pub fn auto_resolve(game: &mut Game) -> RuleResult<bool> {
    let Some(top) = game.tasks.last().cloned() else { return Ok(false) };
    match top {
        Task::Populate if game.rng.is_some() => round::populate(game, None)?,
        Task::Refill if game.market.pile_known => {
            game.tasks.pop();
            market::refill(game, None)?;
        }
        Task::Mass { last } if game.rng.is_some() => hold_mass(game, last, &mass::MassChoice::default())?,
        Task::Fate { set, from } if carla::fate_auto(game) => carla::fate(game, set, from, None)?,
        Task::CarlaTake { color, space } if carla::can_auto(game, color, space)? => {
            carla::take(game, color, space, None)?
        }
        Task::Death { player } if !time_and_death::needs_choice(game, player) => {
            game.tasks.pop();
            time_and_death::die(game, player, None)?;
        }
        Task::MarketDay => match game.market_day.as_ref().and_then(|d| d.queue.front().copied()) {
            Some(Who::Carla) => market::carla_sale(game, None)?,
            Some(Who::Seat(p)) if !market::has_legal_sale(game, p)? => market::pass(game, p)?,
            _ => return Ok(false),
        },
        _ => return Ok(false),
    }
    Ok(true)
}

/// Holds the mass at the top and moves on: a new round, or the end of the game.
pub fn hold_mass(game: &mut Game, last: bool, choice: &mass::MassChoice<'_>) -> RuleResult {
    mass::mass(game, choice)?;
    game.tasks.pop();
    if !last {
        game.start_round();
    }
    Ok(())
}

/// Applies one entry where the game stands (LOG-FORMAT "Entries"): automatic steps first,
/// then either the entry fits the step at the top, or that step is resolved on its own and
/// the entry tried again, or the entry is illegal here.
pub fn apply(game: &mut Game, entry: &Entry) -> RuleResult {
    if let Some(p) = entry.seat() {
        if p >= game.player_count() {
            return fail(ErrorCode::UnknownId, game.no_seat("player", p));
        }
    }
    // Bounded: each auto-resolution consumes a step of the game.
    for _ in 0..100_000 {
        run_automatic(game)?;
        let Some(top) = game.tasks.last().cloned() else {
            return fail(
                ErrorCode::GameOver,
                format!("the game is over; no `{}` may follow (RULES.md G.3.8)", entry.kind()),
            );
        };
        if fits(game, &top, entry)? {
            return apply_fitting(game, &top, entry);
        }
        if !auto_resolve(game)? {
            return Err(misplaced(game, &top, entry));
        }
    }
    fail(ErrorCode::ExpectedEntry, "the game does not reach a step this entry fits")
}

/// Whether the entry is the one the step at the top takes.
fn fits(game: &Game, top: &Task, entry: &Entry) -> RuleResult<bool> {
    Ok(match (top, entry) {
        (Task::Populate, Entry::Populate { .. })
        | (Task::Turn { .. }, Entry::Turn { .. })
        | (Task::Refill, Entry::Refill { .. })
        | (Task::Death { .. }, Entry::Death { .. })
        | (Task::Mass { .. }, Entry::Mass { .. })
        | (Task::CarlaTake { .. }, Entry::Carla { .. })
        | (Task::Fate { .. }, Entry::Fate { .. }) => true,
        (Task::MarketDay, Entry::Sale { player, .. } | Entry::Pass { player }) => {
            // An entry for a player after an automatic pass or Carla's sale fits only once
            // those are resolved; one for the player at the head fits now.
            let head = game.market_day.as_ref().and_then(|d| d.queue.front().copied());
            match (head, player) {
                (Some(Who::Carla), Who::Carla) => true,
                (Some(Who::Carla), _) => false,
                (Some(h), w) if h == *w => true,
                (Some(Who::Seat(h)), _) => market::has_legal_sale(game, h)?,
                (None, _) => true,
            }
        }
        _ => false,
    })
}

fn apply_fitting(game: &mut Game, top: &Task, entry: &Entry) -> RuleResult {
    match (top, entry) {
        (Task::Populate, Entry::Populate { round, spaces }) => round::populate(game, Some((*round, spaces))),
        (Task::Turn { player, last }, Entry::Turn { player: p, take, well, free, action }) => {
            if p != player {
                return fail(
                    ErrorCode::NotYourTurn,
                    format!("{} is to move (RULES.md G.3.1)", game.seat_name(*player)),
                );
            }
            let t = turn::TurnEntry {
                player: *p,
                take: take.as_ref(),
                well: well.as_ref(),
                free: free.unwrap_or(false),
                action: action.as_ref(),
            };
            if *free == Some(false) {
                return fail(ErrorCode::BadTurn, "`free` is written only as `true`");
            }
            turn::turn(game, &t, *last)
        }
        (Task::Refill, Entry::Refill { tiles }) => {
            game.tasks.pop();
            market::refill(game, Some(tiles))
        }
        (Task::Death { player }, Entry::Death { player: p, member }) => {
            if p != player {
                return fail(
                    ErrorCode::DeathNotDue,
                    format!(
                        "a death of {} is being resolved, not of {} (RULES.md G.11.1)",
                        game.seat_name(*player),
                        game.seat_name(*p)
                    ),
                );
            }
            game.tasks.pop();
            time_and_death::die(game, *p, Some(member))
        }
        (Task::Mass { last }, Entry::Mass { buy, draw, promote }) => {
            let choice = mass::MassChoice { buy, draw: draw.as_deref(), promote };
            hold_mass(game, *last, &choice)
        }
        (Task::CarlaTake { color, space }, Entry::Carla { rolls, space: ws, cube }) => {
            carla::take(game, *color, *space, Some((rolls.as_deref(), *ws, *cube)))
        }
        (Task::Fate { set, from }, Entry::Fate { set: ws, result }) => {
            carla::fate(game, *set, *from, Some((*ws, *result)))
        }
        (Task::MarketDay, Entry::Sale { player: Who::Carla, customer, .. }) => {
            market::carla_sale(game, Some(*customer))
        }
        (Task::MarketDay, Entry::Pass { player: Who::Carla }) => {
            fail(ErrorCode::CarlaSaleWrong, "Carla never passes while a customer is available (RULES.md F.4)")
        }
        (Task::MarketDay, Entry::Sale { player: Who::Seat(p), customer, coin_for }) => {
            market::sale(game, *p, *customer, coin_for)
        }
        (Task::MarketDay, Entry::Pass { player: Who::Seat(p) }) => market::pass(game, *p),
        _ => Err(misplaced(game, top, entry)),
    }
}

/// The error of an entry that does not fit the step the game waits for. When it fails several
/// checks, the code is the first in `docs/rules/village.md` H.44's order: the kind due there (a populate, a
/// mass, a death with a choice), then the entry's own checks in the order of G — a populate
/// out of place (G.2.1) before an entry of another kind where a recorded outcome or a choice
/// is due (G.3.9), before a sale or pass without a market day (G.7.1), a death not due (G.11.1),
/// a mass out of place (G.12.1) and a Carla cube not due (G.13.1). (The game over, G.3.8, is
/// [`apply`]'s, with nothing left to wait for; the player of a turn, G.3.1, is checked where the
/// turn fits.)
fn misplaced(game: &Game, top: &Task, entry: &Entry) -> crate::error::RuleError {
    use crate::error::RuleError as E;
    let waiting = describe(game, top);
    let (code, what) = match (top, entry) {
        (Task::Populate, _) => (ErrorCode::ExpectedPopulate, "each round begins with its populate (RULES.md G.2.1)"),
        (Task::Mass { .. }, _) => (ErrorCode::ExpectedMass, "the mass is held here (RULES.md G.12.1)"),
        (Task::Death { .. }, _) => {
            (ErrorCode::DeathExpected, "a death with a choice is being resolved (RULES.md G.11.3)")
        }
        (_, Entry::Populate { .. }) => {
            (ErrorCode::UnexpectedPopulate, "a populate only begins a round (RULES.md G.2.1)")
        }
        (Task::MarketDay, Entry::Sale { .. } | Entry::Pass { .. }) => {
            (ErrorCode::NotYourMarketTurn, "another decides next in this market day (RULES.md G.7.2)")
        }
        (Task::Refill | Task::Fate { .. } | Task::CarlaTake { .. } | Task::MarketDay, _) => {
            (ErrorCode::ExpectedEntry, "the game needs another entry here (RULES.md G.3.9)")
        }
        (_, Entry::Sale { .. } | Entry::Pass { .. }) => {
            (ErrorCode::NoMarketDay, "no market day is open (RULES.md G.7.1)")
        }
        (_, Entry::Death { .. }) => (ErrorCode::DeathNotDue, "no death is being resolved here (RULES.md G.11.1)"),
        (_, Entry::Mass { .. }) => (ErrorCode::UnexpectedMass, "no mass is held here (RULES.md G.12.1)"),
        (_, Entry::Carla { .. }) => (ErrorCode::CarlaNotDue, "Carla takes no cube here (RULES.md G.13.1)"),
        _ => (ErrorCode::ExpectedEntry, "the game needs another entry here (RULES.md G.3.9)"),
    };
    E::new(code, format!("`{}` does not fit: {what}; the game waits for {waiting}", entry.kind()))
}

/// What the game waits for, for people.
pub fn describe(game: &Game, top: &Task) -> String {
    match top {
        Task::Populate => format!("the populate of round {}", game.round),
        Task::Turn { player, last: false } => format!("the turn of {}", game.seat_name(*player)),
        Task::Turn { player, last: true } => format!("the last turn of {}", game.seat_name(*player)),
        Task::MarketDay => match game.market_day.as_ref().and_then(|d| d.queue.front()) {
            Some(Who::Seat(p)) => format!("a sale or pass of {} in the market day", game.seat_name(*p)),
            _ => "Carla's sale in the market day".to_owned(),
        },
        Task::Refill => "the market refill".to_owned(),
        Task::Death { player } => format!("the death of a member of {}", game.seat_name(*player)),
        Task::CarlaTake { .. } => "Carla's cube (`carla`)".to_owned(),
        Task::Fate { .. } => "a fate flip (`fate`)".to_owned(),
        Task::Mass { last: false } => format!("the mass of round {}", game.round),
        Task::Mass { last: true } => "the final mass".to_owned(),
        _ => "the next step".to_owned(),
    }
}
