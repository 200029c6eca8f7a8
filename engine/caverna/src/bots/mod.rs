//! Bots: players that decide from a [`Game`] with the legal-decision generator
//! ([`crate::legal`]), and [`simulate_game`], which lets them play a complete game and writes it
//! down as a `caverna-log/1` log.
//!
//! Bots are outside the rules: they only choose among entries the generator offers (and every
//! entry they return has been verified by applying it to a copy of the game). Their only source
//! of randomness is the [`SplitMix64`] passed in, so a simulation is a pure function of its
//! setup, its bots and its seed.
//!
//! - [`RandomBot`] (`random`): uniformly random among legal options (see its docs for exactly
//!   what "uniform" means).
//! - [`StrategyBot`] with [`Style::Weapons`] (`weapons`) and [`Style::Peaceful`] (`peaceful`):
//!   greedy one-step bots that score the outcome of every generated placement.
//! - `mixed` ([`BotChoice::Mixed`]): every seat gets one of the three, drawn from the seed.
//! - [`StrongBot`] (`strong`): a search by playouts of the strategy bots ([`strong`]); never
//!   drawn by `mixed`, chosen by name, alone or seat by seat ([`seat_bots`]).
//! - A pool member ([`Seated`], `chronicle simulate --pool`): one of the three under its own
//!   name, with its strength (the share of placements its bot makes) and, in a planted
//!   experiment, its leaning towards the planted tile.

mod random;
mod seated;
mod strategy;
pub mod strong;

pub use random::{RandomBot, Sampler};
pub use seated::{planted_tile, Seated};
pub use strategy::{StrategyBot, Style};
pub use strong::StrongBot;

use serde_json::{json, Value};

use crate::game::{Game, Phase};
use crate::goods::FarmAnimal;
use crate::legal;
use crate::notation::{Entry, HarvestPhase, SetupNotation};
use crate::shuffle::SplitMix64;

/// A player's decision maker. Every method returns only entries that are legal in `game`.
pub trait Bot {
    /// The `place` entry of player `p`, who is to move; `None` only if no placement is legal
    /// (which the rules never allow: every player always has some legal placement).
    fn place(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<Entry> {
        self.place_and_play(game, p, rng).map(|(e, _)| e)
    }

    /// [`Bot::place`], with the game after the entry when the bot has it already (bots verify
    /// their entry by applying it to a copy of the game; the simulation then continues from that
    /// copy instead of applying the entry again).
    fn place_and_play(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<(Entry, Option<Box<Game>>)>;

    /// [`Bot::place_and_play`], allowed to write over `spare`, a copy of a game no longer
    /// needed, instead of allocating one (the simulation hands in the state it replaces).
    fn place_reusing(
        &self,
        game: &Game,
        p: usize,
        rng: &mut SplitMix64,
        _spare: &mut Option<Box<Game>>,
    ) -> Option<(Entry, Option<Box<Game>>)> {
        self.place_and_play(game, p, rng)
    }

    /// Field or breeding, at a harvest with the third red event (`docs/rules/caverna-reference.md` C.4).
    fn harvest_choice(&self, game: &Game, p: usize, _rng: &mut SplitMix64) -> HarvestPhase {
        sensible_harvest_choice(game, p)
    }

    /// An optional `feed` entry before paying food: converts before begging.
    fn feed(&self, game: &Game, p: usize, _rng: &mut SplitMix64) -> Option<Entry> {
        sensible_feed(game, p)
    }

    /// An optional `breed` entry; `None` takes the default breeding.
    fn breed(&self, _game: &Game, _p: usize, _rng: &mut SplitMix64) -> Option<Entry> {
        None
    }

    /// An optional `keep` entry (solo); `None` lets every full space be cleared.
    fn keep(&self, _game: &Game, _rng: &mut SplitMix64) -> Option<Entry> {
        None
    }
}

/// The bots a seat can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BotKind {
    Random,
    Weapons,
    Peaceful,
}

impl BotKind {
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Weapons, BotKind::Peaceful];

    pub fn id(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Weapons => "weapons",
            BotKind::Peaceful => "peaceful",
        }
    }

    pub fn from_id(id: &str) -> Option<BotKind> {
        BotKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The bot itself.
    pub fn bot(self) -> Box<dyn Bot + Send + Sync> {
        match self {
            BotKind::Random => Box::new(RandomBot::default()),
            BotKind::Weapons => Box::new(StrategyBot::new(Style::Weapons)),
            BotKind::Peaceful => Box::new(StrategyBot::new(Style::Peaceful)),
        }
    }
}

/// What a simulation asks for: one kind for every seat, or a mix drawn from the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotChoice {
    All(BotKind),
    Mixed,
}

/// The bot of every seat. For [`BotChoice::Mixed`], each seat draws one of
/// [`BotKind::ALL`] uniformly from a generator seeded with `seed`.
pub fn seat_kinds(choice: BotChoice, players: usize, seed: u64) -> Vec<BotKind> {
    match choice {
        BotChoice::All(kind) => vec![kind; players],
        BotChoice::Mixed => {
            let mut rng = SplitMix64::new(seed ^ MIXED_SALT);
            (0..players).map(|_| BotKind::ALL[rng.below(BotKind::ALL.len())]).collect()
        }
    }
}

const MIXED_SALT: u64 = 0x6D69_7865_645F_6269; // "mixed_bi"
const BOTS_SALT: u64 = 0x626F_7473_5F72_6E67; // "bots_rng"

/// The seed of game `index` of a simulated run (the same for every game: see
/// [`chronicle_game::rng::game_seed`]).
pub use chronicle_game::rng::game_seed;

/// The `setup` of a simulated game: one player per bot, named after its bot and seat
/// (`"weapons 2"`), the furnishing set and the seed.
pub fn simulated_setup(kinds: &[BotKind], furnishings: crate::notation::FurnishingSet, seed: u64) -> Value {
    let players: Vec<Value> =
        kinds.iter().enumerate().map(|(i, k)| json!({ "name": format!("{} {}", k.id(), i + 1) })).collect();
    json!({ "players": players, "furnishings": furnishings, "seed": seed })
}

/// The bot of one seat of a simulation chosen seat by seat ([`seat_bots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatBot {
    Kind(BotKind),
    /// The strong bot with its budget (playouts per decision).
    Strong(u32),
}

impl SeatBot {
    pub fn id(self) -> &'static str {
        match self {
            SeatBot::Kind(k) => k.id(),
            SeatBot::Strong(_) => "strong",
        }
    }

    fn bot(self) -> Box<dyn Bot + Send + Sync> {
        match self {
            SeatBot::Kind(k) => k.bot(),
            SeatBot::Strong(budget) => Box::new(StrongBot::new(budget)),
        }
    }
}

/// The bots of a simulation with the strong bot or a choice seat by seat: `choice` is one id
/// for every seat or ids separated by commas, one per seat in seat order (`strong,mixed,mixed`);
/// a `mixed` seat is the seat's draw of [`BotChoice::Mixed`]. `budget` is the strong bot's
/// (default [`strong::DEFAULT_BUDGET`]).
pub fn seat_bots(choice: &str, players: usize, seed: u64, budget: Option<u32>) -> Result<Vec<SeatBot>, String> {
    let ids: Vec<&str> = choice.split(',').map(str::trim).collect();
    let ids = match ids.as_slice() {
        [one] => vec![*one; players],
        many if many.len() == players => many.to_vec(),
        many => return Err(format!("{} bots named for {players} seats", many.len())),
    };
    let drawn = seat_kinds(BotChoice::Mixed, players, seed);
    let budget = budget.unwrap_or(strong::DEFAULT_BUDGET);
    if !(1..=strong::MAX_BUDGET).contains(&budget) {
        return Err(format!("a budget of {budget} playouts: the strong bot takes 1 to {}", strong::MAX_BUDGET));
    }
    ids.iter()
        .zip(drawn)
        .map(|(&id, draw)| match id {
            "mixed" => Ok(SeatBot::Kind(draw)),
            "strong" => Ok(SeatBot::Strong(budget)),
            id => BotKind::from_id(id)
                .map(SeatBot::Kind)
                .ok_or_else(|| chronicle_game::bounded_message(&format!("no Caverna bot is called `{id}`"))),
        })
        .collect()
}

/// A game played by `seats` (see [`seat_bots`]) on `furnishings` from `seed`: players named
/// after their bot and seat (`"strong 1"`), the source naming every bot.
pub fn simulate_seat_bots(
    seats: &[SeatBot],
    furnishings: crate::notation::FurnishingSet,
    seed: u64,
) -> Result<Simulation, SimulateError> {
    let names: Vec<Value> =
        seats.iter().enumerate().map(|(i, b)| json!({ "name": format!("{} {}", b.id(), i + 1) })).collect();
    let setup = json!({ "players": names, "furnishings": furnishings, "seed": seed });
    let players: Vec<Box<dyn Bot + Send + Sync>> = seats.iter().map(|b| b.bot()).collect();
    simulate_players(&setup, players, chronicle_game::simulated_source(seats.iter().map(|b| b.id())), seed)
}

/// Why a simulation did not produce a complete log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimulateError {
    #[error("setup: {0}")]
    Setup(String),
    #[error("{bots} bots for {players} players")]
    BotCount { bots: usize, players: usize },
    /// A bot found nothing legal to do, or offered an entry the rules reject: a bug in the
    /// generator or the engine, never in the input.
    #[error("round {round}, entry {entry}: {message}")]
    Stuck { round: u8, entry: usize, message: String },
}

/// A finished simulation: what its log holds, and the final state.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// The log's `meta.source`: `simulate:` and the bots of the seats, each kind once in seat
    /// order (`simulate:weapons+random`), so simulated games can be selected or left out.
    pub source: String,
    /// The `setup` object of the log (with its `seed`).
    pub setup: Value,
    pub entries: Vec<Entry>,
    /// Final scores in seat order, as computed by the engine (the log's `claimed` scores).
    pub scores: Vec<i64>,
    pub game: Game,
}

/// The log, serialized field by field in the order of [`Simulation::log`].
#[derive(serde::Serialize)]
struct LogRef<'a> {
    format: &'static str,
    meta: MetaRef<'a>,
    setup: &'a Value,
    entries: &'a [Entry],
    claimed: ClaimedRef<'a>,
}

#[derive(serde::Serialize)]
struct MetaRef<'a> {
    source: &'a str,
}

#[derive(serde::Serialize)]
struct ClaimedRef<'a> {
    scores: &'a [i64],
}

impl Simulation {
    fn log_ref(&self) -> LogRef<'_> {
        LogRef {
            format: crate::replay::FORMAT,
            meta: MetaRef { source: &self.source },
            setup: &self.setup,
            entries: &self.entries,
            claimed: ClaimedRef { scores: &self.scores },
        }
    }

    /// The complete `caverna-log/1` log.
    pub fn log(&self) -> Value {
        serde_json::to_value(self.log_ref()).unwrap_or(Value::Null)
    }

    /// The log as compact JSON: the same text as `self.log().to_string()`, without building
    /// the JSON tree first.
    pub fn log_json(&self) -> String {
        serde_json::to_string(&self.log_ref()).unwrap_or_default()
    }
}

/// `meta.source` of a game these bots play (see [`Simulation::source`]).
pub fn source_of(bots: &[BotKind]) -> String {
    chronicle_game::simulated_source(bots.iter().map(|k| k.id()))
}

/// Most entries a simulated game may take (a real game has a few hundred).
const MAX_SIMULATED_ENTRIES: usize = 20_000;

/// Plays a complete game: `setup` is a `setup` object of the log format (`seed` is added when
/// it has none), `bots` one kind per seat, `seed` the bots' randomness. Returns the complete
/// `caverna-log/1` log, with the scores the engine computes as `claimed`.
pub fn simulate_game(setup: &Value, bots: &[BotKind], seed: u64) -> Result<Value, SimulateError> {
    simulate(setup, bots, seed).map(|s| s.log())
}

/// [`simulate_game`], with the final state.
pub fn simulate(setup: &Value, bots: &[BotKind], seed: u64) -> Result<Simulation, SimulateError> {
    let players: Vec<Box<dyn Bot + Send + Sync>> = bots.iter().map(|k| k.bot()).collect();
    simulate_players(setup, players, source_of(bots), seed)
}

/// A game played by pool members (`plans`, in seat order; [`chronicle_game::pool`]): the log's
/// players are the members' names, its source the members' bots.
pub fn simulate_seated(
    plans: &[chronicle_game::pool::SeatPlan],
    furnishings: crate::notation::FurnishingSet,
    seed: u64,
) -> Result<Simulation, SimulateError> {
    let players = plans.iter().map(|plan| Seated::new(plan).map(|s| Box::new(s) as Box<dyn Bot + Send + Sync>));
    let players = players.collect::<Result<Vec<_>, String>>().map_err(SimulateError::Setup)?;
    let names: Vec<Value> = plans.iter().map(|plan| json!({ "name": plan.name })).collect();
    let setup = json!({ "players": names, "furnishings": furnishings, "seed": seed });
    let source = chronicle_game::simulated_source(plans.iter().map(|plan| plan.bot));
    simulate_players(&setup, players, source, seed)
}

/// Plays a complete game with one bot per seat (see [`simulate`]).
fn simulate_players(
    setup: &Value,
    players: Vec<Box<dyn Bot + Send + Sync>>,
    source: String,
    seed: u64,
) -> Result<Simulation, SimulateError> {
    let mut setup = setup.clone();
    if let Value::Object(o) = &mut setup {
        o.entry("seed").or_insert(json!(seed));
    }
    let notation: SetupNotation =
        serde_json::from_value(setup.clone()).map_err(|e| SimulateError::Setup(e.to_string()))?;
    let validated = crate::setup::validate(&notation).map_err(|e| SimulateError::Setup(e.message))?;
    if validated.players() != players.len() {
        return Err(SimulateError::BotCount { bots: players.len(), players: validated.players() });
    }
    // On the heap: the bots hand back the state after their placement as a box, taken over
    // without copying the game.
    let mut game = Box::new(Game::new(validated));
    game.set_record_events(false);
    let mut rng = SplitMix64::new(seed ^ BOTS_SALT);
    let mut entries: Vec<Entry> = Vec::new();
    let seats: Vec<&dyn Bot> = players.iter().map(|b| b.as_ref() as &dyn Bot).collect();
    play_on(&mut game, &seats, &mut rng, Some(&mut entries))?;
    let scores: Vec<i64> = game.results().map(|(s, _)| s.iter().map(|r| r.score.total).collect()).unwrap_or_default();
    Ok(Simulation { source, setup, entries, scores, game: *game })
}

/// Plays `game` on to its end, one bot per seat, drawing on `rng`; every entry played is
/// pushed to `entries` when given (a search's playouts keep none). At most
/// [`MAX_SIMULATED_ENTRIES`] entries are played: the bound of the loop.
pub(crate) fn play_on(
    game: &mut Box<Game>,
    players: &[&dyn Bot],
    rng: &mut SplitMix64,
    mut entries: Option<&mut Vec<Entry>>,
) -> Result<(), SimulateError> {
    // The state a placement replaced, for the next placement's bot to copy the game into.
    let mut spare: Option<Box<Game>> = None;
    let mut played = 0usize;
    let stuck = |game: &Game, played: usize, message: String| SimulateError::Stuck {
        round: game.round(),
        entry: played,
        message,
    };
    let play = |game: &mut Game, played: &mut usize, entries: &mut Option<&mut Vec<Entry>>, entry: Entry| {
        if *played >= MAX_SIMULATED_ENTRIES {
            return Err(stuck(game, *played, format!("more than {MAX_SIMULATED_ENTRIES} entries")));
        }
        game.play_entry(&entry)
            .map_err(|e| stuck(game, *played, format!("bot entry rejected: {}: {}", e.code.as_str(), e.message)))?;
        *played += 1;
        if let Some(list) = entries.as_deref_mut() {
            list.push(entry);
        }
        Ok(())
    };
    loop {
        match *game.phase() {
            Phase::Over => return Ok(()),
            Phase::Work { to_move } => {
                let bot = players
                    .get(to_move)
                    .ok_or_else(|| stuck(game, played, format!("no bot for seat {}", to_move + 1)))?;
                let (entry, after) = bot.place_reusing(game, to_move, rng, &mut spare).ok_or_else(|| {
                    stuck(game, played, format!("no legal placement for {}", game.seat_name(to_move)))
                })?;
                match after {
                    // The bot's verified copy: the entry applied to this very game.
                    Some(after) if played < MAX_SIMULATED_ENTRIES => {
                        played += 1;
                        if let Some(list) = entries.as_deref_mut() {
                            list.push(entry);
                        }
                        spare = Some(std::mem::replace(game, after));
                    }
                    _ => play(game, &mut played, &mut entries, entry)?,
                }
            }
            Phase::HarvestChoice => {
                for p in legal::deciding_players(game) {
                    let phase = seat(players, p)?.harvest_choice(game, p, rng);
                    play(game, &mut played, &mut entries, Entry::HarvestChoice { player: p as u32, phase })?;
                }
            }
            Phase::Feeding { .. } => {
                for p in legal::deciding_players(game) {
                    if let Some(e) = seat(players, p)?.feed(game, p, rng) {
                        play(game, &mut played, &mut entries, e)?;
                    }
                }
                game.close_window();
            }
            Phase::Breeding { .. } => {
                for p in legal::deciding_players(game) {
                    if let Some(e) = seat(players, p)?.breed(game, p, rng) {
                        play(game, &mut played, &mut entries, e)?;
                    }
                }
                game.close_window();
            }
            Phase::Keep => {
                if let Some(e) = seat(players, 0)?.keep(game, rng) {
                    play(game, &mut played, &mut entries, e)?;
                }
                game.close_window();
            }
            Phase::BeforeScoring => game.finish(),
        }
    }
}

/// The bot of seat `p`.
fn seat<'a>(players: &[&'a dyn Bot], p: usize) -> Result<&'a dyn Bot, SimulateError> {
    players.get(p).copied().ok_or(SimulateError::BotCount { bots: players.len(), players: p + 1 })
}

/// Field or breeding: whichever gives more this harvest (crops from sown fields against
/// newborns that can be housed); the field on a tie.
pub fn sensible_harvest_choice(game: &Game, p: usize) -> HarvestPhase {
    let player = game.player(p);
    let crops = player.board.fields().filter(|(_, crop)| crop.is_some()).count();
    let newborns = newborn_count(player);
    if newborns > crops {
        HarvestPhase::Breeding
    } else {
        HarvestPhase::Field
    }
}

/// Newborns the default breeding would give this player now.
pub(crate) fn newborn_count(player: &crate::game::Player) -> usize {
    let mut animals = player.animals();
    let mut n = 0;
    for a in FarmAnimal::ALL {
        if player.animals()[a.index()] >= 2 {
            animals[a.index()] += 1;
            if crate::rules::housing::fits(
                &player.board,
                player.dwarfs_in_play(),
                animals,
                player.supply.get(crate::goods::Good::Dog),
            ) {
                n += 1;
            } else {
                animals[a.index()] -= 1;
            }
        }
    }
    n
}

/// The `feed` entry of [`legal::feeding_plan`] (the goods worth least at scoring converted
/// until the food due is covered), when food is short and the plan is legal.
pub fn sensible_feed(game: &Game, p: usize) -> Option<Entry> {
    let entry = Entry::Feed { player: p as u32, actions: vec![legal::feeding_plan(game, p)?] };
    legal::is_legal(game, &entry).then_some(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ_and_fit_in_53_bits() {
        let seeds: Vec<u64> = (0..100).map(|i| game_seed(7, i)).collect();
        let mut sorted = seeds.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 100);
        assert!(seeds.iter().all(|&s| s < 1 << 53));
        assert_ne!(game_seed(7, 1), game_seed(8, 0));
    }

    /// `Game::clone_from` (written out, reusing the target) gives exactly a copy, also across
    /// games with other players.
    #[test]
    fn clone_from_copies_a_game() {
        let play = |players: usize, seed: u64| {
            let kinds = vec![BotKind::Random; players];
            let setup = simulated_setup(&kinds, crate::notation::FurnishingSet::Full, seed);
            simulate(&setup, &kinds, seed).expect("simulated").game
        };
        let (a, b, c) = (play(4, 1), play(4, 2), play(2, 3));
        for (target, source) in [(&a, &b), (&b, &c), (&c, &a)] {
            let mut copy = target.clone();
            copy.clone_from(source);
            assert_eq!(&copy, source);
        }
    }

    #[test]
    fn mixed_seats_come_from_the_seed() {
        assert_eq!(seat_kinds(BotChoice::Mixed, 7, 3), seat_kinds(BotChoice::Mixed, 7, 3));
        let all: Vec<BotKind> = (0..20).flat_map(|s| seat_kinds(BotChoice::Mixed, 7, s)).collect();
        for k in BotKind::ALL {
            assert!(all.contains(&k));
        }
        assert_eq!(seat_kinds(BotChoice::All(BotKind::Weapons), 2, 0), vec![BotKind::Weapons; 2]);
    }
}
