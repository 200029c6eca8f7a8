//! Bots and the simulator (the trait's `simulate`): whole games in **seeded** mode with the
//! labelled synthetic component set ([`crate::synthetic`]), every entry applied through the
//! same rules as a replay. Deterministic from the seed: the game's dice and draws come from
//! `ab-splitmix-1` on `setup.seed`; the bots' own choices from a second `ab-splitmix-1` stream
//! seeded with `seed ^ CHOICE_SALT`.
//!
//! Explorations need Adventure Book content, which the project does not have (B.1, B.8). The
//! bots declare a **synthetic encounter** ([`encounter`]): thresholds and rewards made up from
//! the paragraph number, consistent within a log (H.33), and never presented as the book's.

pub mod encounter;
pub mod random;
pub mod strategy;

use serde_json::{json, Value};

use crate::game::{Game, Phase};
use crate::ids::Good;
use crate::notation::{Entry, RandomMode, SetupNotation};
use crate::rng::SplitMix;

/// Mixed into the seed for the bots' choice stream.
pub const CHOICE_SALT: u64 = 0xA0B0_C0D0_E0F0_1234;
/// Safety bound on entries in a simulated game (a real game has a few hundred).
const MAX_ENTRIES: usize = 5_000;

/// Which bot plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Strategy,
}

/// `meta.source` of a simulated game: `simulate:` and its seats' bots, each kind once in seat
/// order (`simulate:strategy+random`), so simulated games can be selected or left out.
pub fn source_of(kinds: &[BotKind]) -> String {
    chronicle_game::simulated_source(kinds.iter().map(|k| match k {
        BotKind::Random => "random",
        BotKind::Strategy => "strategy",
    }))
}

/// Seat 0 is always the strategy bot; the others alternate, starting from the seed's parity.
pub fn seat_kinds(players: usize, seed: u64) -> Vec<BotKind> {
    (0..players)
        .map(|i| if i == 0 || (i as u64 + seed).is_multiple_of(2) { BotKind::Strategy } else { BotKind::Random })
        .collect()
}

/// The seeded setup of a simulated game, with the synthetic components.
pub fn simulated_setup(players: usize, seed: u64) -> Result<SetupNotation, String> {
    named_setup((0..players).map(|i| format!("Bot {}", i + 1)).collect(), seed)
}

/// The seeded setup of a simulated game whose players have these names.
fn named_setup(names: Vec<String>, seed: u64) -> Result<SetupNotation, String> {
    let (catalogue, board) = crate::synthetic::components()?;
    Ok(SetupNotation {
        players: names.into_iter().map(|name| crate::notation::PlayerNotation { name }).collect(),
        catalogue: serde_json::value::to_raw_value(&catalogue).map_err(|e| e.to_string())?,
        board: Some(board),
        random: Some(RandomMode::Seeded),
        seed: Some(seed),
        key_houses: None,
        star_houses: None,
        house_row: None,
        outpost_row: None,
        villager_row: None,
    })
}

/// A store of every goods token in a player's reserve that still fits the track (D.9).
pub fn store_all(game: &Game, p: usize) -> Option<Entry> {
    let pl = &game.players()[p];
    let mut types = pl.storage.len();
    let spaces = game.setup().board.spaces.len();
    let mut goods = Vec::new();
    for g in Good::ALL {
        let n = pl.reserve[g.index()];
        if n == 0 {
            continue;
        }
        if pl.stored(g) == 0 {
            if types >= spaces {
                continue;
            }
            types += 1;
        }
        goods.extend(std::iter::repeat_n(g, n.min(100) as usize));
    }
    (!goods.is_empty()).then_some(Entry::Store { player: p as u64, goods })
}

/// Plays a whole game and returns its log.
pub fn simulate(seed: u64, players: u8) -> Result<Value, String> {
    let n = usize::from(players);
    if !(2..=4).contains(&n) {
        return Err(format!("Above and Below is for 2 to 4 players, not {players}"));
    }
    let kinds = seat_kinds(n, seed);
    let seats: Vec<(BotKind, u8)> = kinds.iter().map(|k| (*k, 100)).collect();
    play(simulated_setup(n, seed)?, &seats, source_of(&kinds), seed)
}

/// Plays a whole game with pool members at the seats ([`chronicle_game::pool`]): the log's
/// players are the members' names; a strategy member's turns are its bot's in the share its
/// strength gives and the random bot's otherwise.
pub fn simulate_seated(seed: u64, players: u8, plans: &[chronicle_game::pool::SeatPlan]) -> Result<Value, String> {
    chronicle_game::pool::check_seats(plans, players, None)?;
    if !(2..=4).contains(&plans.len()) {
        return Err(format!("Above and Below is for 2 to 4 players, not {players}"));
    }
    let mut seats = Vec::new();
    for plan in plans {
        if plan.plant.is_some() {
            return Err("Above and Below's simulator plants no tiles".to_owned());
        }
        let kind = match plan.bot {
            "random" => BotKind::Random,
            "strategy" => BotKind::Strategy,
            other => return Err(format!("no Above and Below bot is called `{other}`")),
        };
        seats.push((kind, plan.care.min(100)));
    }
    let names = plans.iter().map(|p| p.name.clone()).collect();
    let source = chronicle_game::simulated_source(plans.iter().map(|p| p.bot));
    play(named_setup(names, seed)?, &seats, source, seed)
}

/// Plays the game of `setup`, one bot and its care (percent of turns it plays itself) per seat.
fn play(setup: SetupNotation, seats: &[(BotKind, u8)], source: String, seed: u64) -> Result<Value, String> {
    let players = seats.len();
    let kinds: Vec<BotKind> = seats.iter().map(|s| s.0).collect();
    let validated = crate::setup::validate(&setup).map_err(|e| e.to_string())?;
    let mut game = Game::new(validated);
    let mut rng = SplitMix::new(seed ^ CHOICE_SALT);
    let mut entries: Vec<Value> = Vec::new();
    let mut push = |game: &mut Game, entry: Entry| -> Result<(), String> {
        game.apply(&entry).map_err(|e| format!("simulated entry {} is illegal: {e}", entries.len()))?;
        entries.push(serde_json::to_value(&entry).map_err(|e| e.to_string())?);
        Ok(())
    };
    for _ in 0..MAX_ENTRIES {
        match game.phase() {
            Phase::Over => {
                for (p, kind) in kinds.iter().enumerate() {
                    if *kind == BotKind::Strategy {
                        if let Some(e) = store_all(&game, p) {
                            push(&mut game, e)?;
                        }
                    }
                }
                let log = json!({
                    "format": crate::replay::FORMAT,
                    "meta": { "id": format!("simulated-{seed}-{players}p"), "source": source },
                    "setup": setup,
                    "entries": entries,
                });
                return Ok(log);
            }
            Phase::RoundEnd => push(&mut game, Entry::RoundEnd { villagers: None, rest: vec![] })?,
            Phase::Actions => {
                let p = game.to_move().unwrap_or(0);
                let care = seats.get(p).map_or(100, |s| s.1);
                let own = care >= 100 || rng.uniform(100) < u64::from(care);
                let entry = match kinds[p] {
                    BotKind::Strategy if own => {
                        if let Some(e) = store_all(&game, p) {
                            push(&mut game, e)?;
                        }
                        strategy::turn(&game, p, &mut rng)
                    }
                    BotKind::Strategy | BotKind::Random => random::turn(&game, p, &mut rng),
                };
                push(&mut game, entry)?;
            }
        }
    }
    Err(format!("the simulated game did not end within {MAX_ENTRIES} entries"))
}
