//! The seed logs the mutator starts from, and the dictionaries it draws replacement ids and
//! keys from.
//!
//! Real logs come from the repository (the golden fixtures and the example of Caverna, the
//! fixtures of the other games' engines), simulated logs from each engine's own bots with
//! fixed seeds, so a campaign needs no files beyond the repository and is the same on every
//! machine. Every game of [`crate::GAMES`] has seed logs, so every engine is fuzzed.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use chronicle_caverna::action_space::{ActionSpace, RoundCard};
use chronicle_caverna::bots::{self, BotChoice, BotKind};
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::goods::{FarmAnimal, Good};
use chronicle_caverna::notation::{FurnishingSet, LootItem};
use chronicle_game::{GameEngine, GameKind};
use serde_json::Value;

/// The repository root as seen when this crate was compiled (`fuzz/..`).
pub const DEFAULT_ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Where the real logs live, relative to the repository root.
const FIXTURE_DIR: &str = "tests/fixtures/games";
const EXAMPLE_LOG: &str = "examples/solo.json";

/// Where the other games' engines keep their fixture logs, relative to the repository root
/// (files that are not a log of a known game, such as expected results, are skipped).
const ENGINE_FIXTURE_DIRS: [&str; 2] = ["engine/village/tests/fixtures", "engine/above-and-below/tests/fixtures"];

/// Base seed of the simulated games (any fixed value; changing it changes every case).
const SIMULATION_SEED: u64 = 0xF0_22;

/// Strings longer than this are not ids (player names, messages) and stay out of the
/// dictionary, which keeps it small and id-like.
const MAX_ID_LEN: usize = 48;

/// One seed log.
#[derive(Clone, Debug)]
pub struct SeedLog {
    /// Where it came from: a file path relative to the root, or `simulated/…`.
    pub name: String,
    pub log: Value,
}

/// The seed logs plus the dictionaries harvested from them.
#[derive(Clone, Debug)]
pub struct Corpus {
    pub logs: Vec<SeedLog>,
    /// Every short string value of the corpus plus every id of the engine's vocabulary
    /// (spaces, round cards, tiles, goods, animals, loot), sorted.
    pub ids: Vec<String>,
    /// Every object key seen in the corpus, sorted.
    pub keys: Vec<String>,
}

/// Why the corpus could not be built.
#[derive(Debug)]
pub enum CorpusError {
    Io(PathBuf, std::io::Error),
    NotJson(PathBuf, serde_json::Error),
    /// A bot game with fixed seeds failed: an engine or generator bug, not an input problem.
    Simulation(String),
    Empty,
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorpusError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            CorpusError::NotJson(p, e) => write!(f, "{}: not JSON: {e}", p.display()),
            CorpusError::Simulation(m) => write!(f, "simulated seed game: {m}"),
            CorpusError::Empty => f.write_str("the corpus has no logs"),
        }
    }
}

impl std::error::Error for CorpusError {}

impl Corpus {
    /// The standard corpus: every fixture log and the example under `root`, the other
    /// games' fixture logs, plus the simulated games of [`simulated_logs`] and
    /// [`other_games_simulated_logs`].
    pub fn load(root: &Path) -> Result<Corpus, CorpusError> {
        let mut logs = repository_logs(root)?;
        logs.extend(simulated_logs()?);
        logs.extend(engine_fixture_logs(root)?);
        logs.extend(other_games_simulated_logs()?);
        Corpus::from_logs(logs)
    }

    /// A corpus of the given logs, with dictionaries harvested from them.
    pub fn from_logs(logs: Vec<SeedLog>) -> Result<Corpus, CorpusError> {
        if logs.is_empty() {
            return Err(CorpusError::Empty);
        }
        let mut ids: BTreeSet<String> = engine_vocabulary().collect();
        let mut keys = BTreeSet::new();
        for seed in &logs {
            harvest(&seed.log, &mut ids, &mut keys);
        }
        Ok(Corpus { logs, ids: ids.into_iter().collect(), keys: keys.into_iter().collect() })
    }
}

/// The fixture logs (sorted by file name, `*.expect.json` sidecars skipped) and the example.
fn repository_logs(root: &Path) -> Result<Vec<SeedLog>, CorpusError> {
    let dir = root.join(FIXTURE_DIR);
    let entries = std::fs::read_dir(&dir).map_err(|e| CorpusError::Io(dir.clone(), e))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| is_log_file(p)).collect();
    paths.sort();
    paths.push(root.join(EXAMPLE_LOG));
    paths.iter().map(|p| read_log(root, p)).collect()
}

/// The fixture logs of the other games' engines ([`ENGINE_FIXTURE_DIRS`], sorted by file
/// name): every JSON file whose `format` names a game Chronicle knows.
fn engine_fixture_logs(root: &Path) -> Result<Vec<SeedLog>, CorpusError> {
    let mut logs = Vec::new();
    for dir in ENGINE_FIXTURE_DIRS {
        let dir = root.join(dir);
        let entries = std::fs::read_dir(&dir).map_err(|e| CorpusError::Io(dir.clone(), e))?;
        let mut paths: Vec<PathBuf> =
            entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| is_log_file(p)).collect();
        paths.sort();
        for path in paths {
            let log = read_log(root, &path)?;
            if log.log.get("format").and_then(Value::as_str).and_then(GameKind::from_format).is_some() {
                logs.push(log);
            }
        }
    }
    Ok(logs)
}

/// Complete games of the other games played by their engines' bots: every player count of
/// each game's spec, from fixed seeds.
pub fn other_games_simulated_logs() -> Result<Vec<SeedLog>, CorpusError> {
    let mut logs = Vec::new();
    logs.extend(engine_simulated::<chronicle_village::Village>()?);
    logs.extend(engine_simulated::<chronicle_above_and_below::AboveAndBelow>()?);
    Ok(logs)
}

fn engine_simulated<E: GameEngine>() -> Result<Vec<SeedLog>, CorpusError> {
    E::KIND
        .spec()
        .players()
        .map(|players| {
            let seed = bots::game_seed(SIMULATION_SEED, u64::from(players));
            let log = E::simulate(seed, players)
                .map_err(|e| CorpusError::Simulation(format!("{} {players} players, seed {seed}: {e}", E::KIND)))?;
            Ok(SeedLog { name: format!("simulated/{}-{players}p-{seed}", E::KIND), log })
        })
        .collect()
}

/// A game log, as opposed to the `*.expect.json` file of expected results beside it.
fn is_log_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".json") && !name.ends_with(".expect.json")
}

fn read_log(root: &Path, path: &Path) -> Result<SeedLog, CorpusError> {
    let bytes = std::fs::read(path).map_err(|e| CorpusError::Io(path.to_path_buf(), e))?;
    let log = serde_json::from_slice(&bytes).map_err(|e| CorpusError::NotJson(path.to_path_buf(), e))?;
    let name = path.strip_prefix(root).unwrap_or(path).display().to_string();
    Ok(SeedLog { name, log })
}

/// Complete games played by the engine's bots: every player count 1–7 with both furnishing
/// sets, once with random bots and once with strategy bots (weapons, peaceful and mixed seats
/// in turn), from fixed seeds. They reach positions (late rounds, big boards, expeditions,
/// every seat count) that the hand-written fixtures do not.
pub fn simulated_logs() -> Result<Vec<SeedLog>, CorpusError> {
    let strategies = [BotChoice::All(BotKind::Weapons), BotChoice::All(BotKind::Peaceful), BotChoice::Mixed];
    let mut logs = Vec::new();
    let mut index = 0u64;
    for players in 1..=7usize {
        for set in [FurnishingSet::Full, FurnishingSet::Introductory] {
            let strategy = strategies[(index / 2) as usize % strategies.len()];
            for choice in [BotChoice::All(BotKind::Random), strategy] {
                logs.push(simulated_log(players, set, choice, bots::game_seed(SIMULATION_SEED, index))?);
                index += 1;
            }
        }
    }
    Ok(logs)
}

fn simulated_log(players: usize, set: FurnishingSet, choice: BotChoice, seed: u64) -> Result<SeedLog, CorpusError> {
    let kinds = bots::seat_kinds(choice, players, seed);
    let setup = bots::simulated_setup(&kinds, set, seed);
    let sim = bots::simulate(&setup, &kinds, seed)
        .map_err(|e| CorpusError::Simulation(format!("{players} players, {set:?}, {choice:?}, seed {seed}: {e}")))?;
    let bots: Vec<&str> = kinds.iter().map(|k| k.id()).collect();
    Ok(SeedLog { name: format!("simulated/{players}p-{set:?}-{}-{seed}", bots.join("+")), log: sim.log() })
}

/// Every id the engine knows, so that ids the corpus happens not to use are tried too.
fn engine_vocabulary() -> impl Iterator<Item = String> {
    let spaces = ActionSpace::ALL.iter().map(|s| s.id().to_owned());
    let cards = RoundCard::ALL.iter().map(|c| c.id().to_owned());
    let tiles = Furnishing::all().map(|t| t.id().to_owned());
    let goods = Good::ALL.iter().map(|g| g.id().to_owned());
    let animals = FarmAnimal::ALL.iter().map(|a| a.id().to_owned());
    let loot = LootItem::ALL.iter().map(|l| l.id().to_owned());
    spaces.chain(cards).chain(tiles).chain(goods).chain(animals).chain(loot)
}

/// Collects the short string values and the object keys of `value`.
fn harvest(value: &Value, ids: &mut BTreeSet<String>, keys: &mut BTreeSet<String>) {
    match value {
        Value::String(s) if s.len() <= MAX_ID_LEN => {
            ids.insert(s.clone());
        }
        Value::Array(items) => items.iter().for_each(|v| harvest(v, ids, keys)),
        Value::Object(map) => {
            for (k, v) in map {
                keys.insert(k.clone());
                harvest(v, ids, keys);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidecars_are_not_logs() {
        assert!(is_log_file(Path::new("a/complete_2p.json")));
        assert!(!is_log_file(Path::new("a/complete_2p.expect.json")));
        assert!(!is_log_file(Path::new("a/README.md")));
    }

    #[test]
    fn harvest_collects_ids_and_keys_but_not_long_strings() {
        let log =
            serde_json::json!({"setup": {"players": [{"name": "x".repeat(100)}]}, "entries": [{"space": "logging"}]});
        let (mut ids, mut keys) = (BTreeSet::new(), BTreeSet::new());
        harvest(&log, &mut ids, &mut keys);
        assert_eq!(ids.into_iter().collect::<Vec<_>>(), ["logging"]);
        assert!(keys.contains("space") && keys.contains("players") && keys.contains("name"));
    }
}
