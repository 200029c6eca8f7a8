//! Bots and the simulator (`GameEngine::simulate`): a seeded game played entry by entry, each
//! entry chosen by the seat's bot among the legal candidates ([`crate::legal`]). Deterministic
//! from the seed; the game uses the labelled synthetic component table
//! ([`crate::components::SYNTHETIC`]), not the printed game's data.

pub mod greedy;
pub mod random;

use chronicle_game::pool::SeatPlan;
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

impl BotKind {
    pub fn id(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
        }
    }

    pub fn from_id(id: &str) -> Option<BotKind> {
        [BotKind::Random, BotKind::Greedy].into_iter().find(|k| k.id() == id)
    }

    /// The bot, seeded.
    fn bot(self, seed: u64) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(random::RandomBot::new(seed)),
            BotKind::Greedy => Box::new(greedy::GreedyBot::new(seed)),
        }
    }
}

/// A pool member's bot with its strength: its own bot makes `care` percent of the decisions,
/// the random bot the others.
struct Seated {
    own: Box<dyn Bot>,
    care: u8,
    random: random::RandomBot,
    rng: Rng,
}

impl Seated {
    fn new(own: Box<dyn Bot>, care: u8, seed: u64) -> Seated {
        Seated { own, care: care.min(100), random: random::RandomBot::new(seed), rng: Rng::new(seed ^ 0xCA2E) }
    }
}

impl Bot for Seated {
    fn choose(&mut self, game: &Game, options: &[Entry]) -> usize {
        if self.care >= 100 || self.rng.below(100) < u64::from(self.care) {
            self.own.choose(game, options)
        } else {
            self.random.choose(game, options)
        }
    }
}

/// `meta.source` of a simulated game: `simulate:` and its seats' bots, each kind once in seat
/// order (`simulate:greedy+random`), so simulated games can be selected or left out.
pub fn source_of(kinds: &[BotKind]) -> String {
    chronicle_game::simulated_source(kinds.iter().map(|k| k.id()))
}

/// Seat kinds for a seed: alternating, starting with the seed's parity.
pub fn seat_kinds(players: usize, seed: u64) -> Vec<BotKind> {
    (0..players).map(|i| if (i as u64 + seed).is_multiple_of(2) { BotKind::Greedy } else { BotKind::Random }).collect()
}

/// The setup of a simulated game.
pub fn simulated_setup(players: usize, seed: u64) -> Value {
    let names: Vec<String> = (0..players).map(|i| format!("Bot {}", i + 1)).collect();
    named_setup(&names, seed)
}

/// The setup of a simulated game whose players have these names.
fn named_setup(names: &[String], seed: u64) -> Value {
    let colors = [Color::Blue, Color::Red, Color::Yellow, Color::White, Color::Purple];
    let players = names.len();
    let seats: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut s = json!({ "name": name, "color": colors[i % 5] });
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
    let mut rng = Rng::new(seed ^ 0x5EED_B075);
    let bots: Vec<Box<dyn Bot>> = seat_kinds(n, seed).into_iter().map(|k| k.bot(rng.next_u64())).collect();
    play(setup, source_of(&seat_kinds(n, seed)), bots, seed)
}

/// Plays a whole game with pool members at the seats ([`chronicle_game::pool`]): the log's
/// players are the members' names, each seat's bot makes the share of its decisions its
/// strength gives and the random bot the others.
pub fn simulate_seated(seed: u64, players: u8, seats: &[SeatPlan]) -> Result<Value, String> {
    chronicle_game::pool::check_seats(seats, players, None)?;
    if !(1..=5).contains(&seats.len()) {
        return Err(format!("{players} players; Village has 1 to 5"));
    }
    let mut rng = Rng::new(seed ^ 0x5EED_B075);
    let mut bots: Vec<Box<dyn Bot>> = Vec::new();
    for plan in seats {
        if plan.plant.is_some() {
            return Err("Village has no tiles to plant".to_owned());
        }
        let kind = BotKind::from_id(plan.bot).ok_or_else(|| format!("no Village bot is called `{}`", plan.bot))?;
        bots.push(Box::new(Seated::new(kind.bot(rng.next_u64()), plan.care, rng.next_u64())));
    }
    let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
    let source = chronicle_game::simulated_source(seats.iter().map(|s| s.bot));
    play(named_setup(&names, seed), source, bots, seed)
}

/// Plays the game of `setup` with one bot per seat.
fn play(setup: Value, source: String, mut bots: Vec<Box<dyn Bot>>, seed: u64) -> Result<Value, String> {
    let n = bots.len();
    let meta = json!({ "id": format!("simulated-{seed}-{n}p"), "source": source });
    let log = json!({ "format": crate::replay::FORMAT, "meta": meta, "setup": setup, "entries": [] });
    let text = log.to_string();
    let doc = crate::replay::parse_document(text.as_bytes()).map_err(|(e, _)| e.message)?;
    let mut game = crate::replay::start(&doc).map_err(|e| e.message)?;
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
