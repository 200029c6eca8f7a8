//! Bots and the simulator (`GameEngine::simulate`): a seeded game played entry by entry, each
//! entry chosen by the seat's bot among the legal candidates ([`crate::legal`]). Deterministic
//! from the seed; the game uses the labelled synthetic component table
//! ([`crate::components::SYNTHETIC`]), not the printed game's data.

pub mod greedy;
pub mod random;

use serde_json::{json, Value};

use crate::components::SYNTHETIC;
use crate::game::{Game, Task};
use crate::ids::Color;
use crate::legal;
use crate::notation::Entry;
use crate::rng::{Rng, MAX_SEED};
use crate::rules;

/// The most entries a simulated game may take before it is abandoned.
pub const MAX_SIM_ENTRIES: usize = 20_000;

/// A bot: picks one of the legal entries.
pub trait Bot {
    fn choose(&mut self, game: &Game, options: &[Entry]) -> usize;
}

/// Which bot plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Greedy,
}

/// `meta.source` of a simulated game: `simulate:` and its seats' bots, each kind once in seat
/// order (`simulate:greedy+random`), so simulated games can be selected or left out.
pub fn source_of(kinds: &[BotKind]) -> String {
    chronicle_game::simulated_source(kinds.iter().map(|k| match k {
        BotKind::Random => "random",
        BotKind::Greedy => "greedy",
    }))
}

/// Seat kinds for a seed: alternating, starting with the seed's parity.
pub fn seat_kinds(players: usize, seed: u64) -> Vec<BotKind> {
    (0..players).map(|i| if (i as u64 + seed).is_multiple_of(2) { BotKind::Greedy } else { BotKind::Random }).collect()
}

/// The setup of a simulated game.
pub fn simulated_setup(players: usize, seed: u64) -> Value {
    let colors = [Color::Blue, Color::Red, Color::Yellow, Color::White, Color::Purple];
    let seats: Vec<Value> = (0..players)
        .map(|i| {
            let mut s = json!({ "name": format!("Bot {}", i + 1), "color": colors[i % 5] });
            if players >= 4 && i == 3 {
                s["start_cube"] = json!("green");
            }
            s
        })
        .collect();
    let mut setup = json!({ "players": seats, "components": SYNTHETIC, "seed": seed & MAX_SEED });
    if players == 1 {
        let rule = if seed % 3 == 2 { "die" } else { "track" };
        setup["solo"] = json!({ "carla_color": "purple", "carla_rule": rule });
    }
    setup
}

/// Plays a whole game: every entry written out, seeded random parts included.
pub fn simulate(seed: u64, players: u8) -> Result<Value, String> {
    let n = usize::from(players);
    if !(1..=5).contains(&n) {
        return Err(format!("{players} players; Village has 1 to 5"));
    }
    let setup = simulated_setup(n, seed);
    let meta = json!({ "id": format!("simulated-{seed}-{n}p"), "source": source_of(&seat_kinds(n, seed)) });
    let log = json!({ "format": crate::replay::FORMAT, "meta": meta, "setup": setup, "entries": [] });
    let text = log.to_string();
    let doc = crate::replay::parse_document(text.as_bytes()).map_err(|(e, _)| e.message)?;
    let mut game = crate::replay::start(&doc).map_err(|e| e.message)?;
    let mut rng = Rng::new(seed ^ 0x5EED_B075);
    let mut bots: Vec<Box<dyn Bot>> = seat_kinds(n, seed)
        .into_iter()
        .map(|k| -> Box<dyn Bot> {
            match k {
                BotKind::Random => Box::new(random::RandomBot::new(rng.next_u64())),
                BotKind::Greedy => Box::new(greedy::GreedyBot::new(rng.next_u64())),
            }
        })
        .collect();
    let mut entries = Vec::new();
    for _ in 0..MAX_SIM_ENTRIES {
        rules::run_automatic(&mut game).map_err(|e| e.to_string())?;
        if game.is_over() {
            let mut out = log;
            out["entries"] = Value::Array(entries);
            return Ok(out);
        }
        let (options, _) = legal::legal_entries(&game, usize::MAX);
        if options.is_empty() {
            let waiting = game.tasks.last().map(|t| rules::describe(&game, t)).unwrap_or_default();
            return Err(format!("no legal entry at {waiting} after {} entries", entries.len()));
        }
        let seat = match game.tasks.last() {
            Some(Task::Mass { .. } | Task::Populate | Task::Refill) => None,
            _ => game.to_move(),
        };
        let count = bots.len();
        let i = match seat {
            Some(p) => bots[p % count].choose(&game, &options),
            None => bots[0].choose(&game, &options),
        };
        let entry = options.get(i).or(options.first()).cloned().ok_or("no option")?;
        rules::apply(&mut game, &entry).map_err(|e| e.to_string())?;
        entries.push(serde_json::to_value(&entry).map_err(|e| e.to_string())?);
    }
    Err(format!("the simulated game did not end within {MAX_SIM_ENTRIES} entries"))
}
