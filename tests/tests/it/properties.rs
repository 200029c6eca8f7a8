//! Property tests over games simulated by the bots (`chronicle_caverna::bots`):
//!
//! (a) simulated games of every player count (1–7) and both furnishing sets, with the random
//!     and the strategy bots, replay as complete, to the same final state and scores;
//! (b) every decision the generator (`legal::legal_entries`) offers at a prefix of a simulated
//!     game is accepted by the replay (prefix + offered entry is not invalid), a required
//!     decision always has at least one option, and the game's own next placement is
//!     reachable through the step-by-step form (`steps`);
//! (c) random mutations of valid logs (another space, other coordinates, another tile, another
//!     player, a dropped entry, a duplicated entry) never panic: the log is valid, or rejected
//!     at or after the mutated entry, and the log cut right after the mutated entry is valid or
//!     rejected exactly there.
//!
//! The runners are deterministic (fixed seed, fixed case counts, no failure-persistence
//! files; `PROPTEST_*` variables are ignored) and sized for a debug build: the logs are
//! simulated once and shared. For a deeper local run, `CHRONICLE_PROPERTY_SCALE=N` multiplies
//! the case counts (and still gives the same cases for the same N).

use std::sync::OnceLock;

use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::bots::{self, BotChoice, BotKind};
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::legal::{legal_entries, Limits};
use chronicle_caverna::notation::FurnishingSet;
use chronicle_caverna::{replay, replay_until, Phase, Status};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestRunner};
use serde_json::{json, Value};

/// A deterministic runner: `cases` cases (times `CHRONICLE_PROPERTY_SCALE`) from a fixed seed,
/// no persistence, short shrinking.
fn runner(cases: u32, seed: u64) -> TestRunner {
    let scale: u32 = std::env::var("CHRONICLE_PROPERTY_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    TestRunner::new(Config {
        cases: cases.saturating_mul(scale.max(1)),
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 64,
        ..Config::default()
    })
}

const SETS: [FurnishingSet; 2] = [FurnishingSet::Full, FurnishingSet::Introductory];

/// One simulated game: its log (compact JSON), its bots and the final state of the simulation.
struct Simulated {
    players: usize,
    kinds: Vec<BotKind>,
    log: String,
    sim: bots::Simulation,
}

fn simulate(players: usize, set: FurnishingSet, choice: BotChoice, seed: u64) -> Simulated {
    let kinds = bots::seat_kinds(choice, players, seed);
    let setup = bots::simulated_setup(&kinds, set, seed);
    let sim = bots::simulate(&setup, &kinds, seed)
        .unwrap_or_else(|e| panic!("{players} players, {set:?}, {choice:?}, seed {seed}: {e}"));
    Simulated { players, kinds, log: sim.log_json(), sim }
}

/// Simulated once, shared by every test: random-bot games of every player count with both
/// furnishing sets (the first 14), then strategy-bot games of every player count, alternating
/// the furnishing set and the bots (weapons, peaceful, mixed seats).
fn pool() -> &'static [Simulated] {
    static POOL: OnceLock<Vec<Simulated>> = OnceLock::new();
    POOL.get_or_init(|| {
        let random = (1..=7)
            .flat_map(|n| SETS.map(|set| (n, set)))
            .map(|(n, set)| simulate(n, set, BotChoice::All(BotKind::Random), bots::game_seed(11, n as u64)));
        let choices = [BotChoice::All(BotKind::Weapons), BotChoice::All(BotKind::Peaceful), BotChoice::Mixed];
        let strategy = (1..=7usize).map(|n| simulate(n, SETS[n % 2], choices[n % 3], bots::game_seed(23, n as u64)));
        random.chain(strategy).collect()
    })
}

fn random_pool() -> &'static [Simulated] {
    &pool()[..14]
}

fn strategy_pool() -> &'static [Simulated] {
    &pool()[14..]
}

/// The log replays as complete, entry for entry, to the simulation's final state and scores.
#[track_caller]
fn assert_replays_complete(s: &Simulated) {
    let r = replay(s.log.as_bytes());
    assert_eq!(r.status, Status::Complete, "{:?}", r.error);
    assert_eq!(r.entries_applied, s.sim.entries.len());
    assert!(r.claimed_mismatches.is_empty(), "{:?}", r.claimed_mismatches);
    let game = r.game.as_ref().expect("a complete replay has a game");
    assert_eq!(game.players(), s.sim.game.players(), "final states differ");
    let totals: Vec<i64> = r.scores.iter().flatten().map(|p| p.score.total).collect();
    assert_eq!(totals, s.sim.scores);
    assert_eq!(s.log, s.sim.log().to_string(), "log_json and log disagree");
}

// ---------------------------------------------------------------------------------------------
// (a) simulated games replay as complete
// ---------------------------------------------------------------------------------------------

/// Random bots: every player count 1–7 with both furnishing sets (the shared pool), and the
/// same arguments give the same log.
#[test]
fn a_random_games_of_every_size_and_set_replay_complete() {
    for s in random_pool() {
        assert_replays_complete(s);
    }
    let again = simulate(3, FurnishingSet::Full, BotChoice::All(BotKind::Random), bots::game_seed(11, 3));
    assert_eq!(again.log, random_pool()[4].log);
}

/// Random bots, more seeds: a proptest over player count, furnishing set and seed.
#[test]
fn a_random_games_replay_complete_for_any_seed() {
    let strategy = (1usize..=7, prop::bool::ANY, any::<u64>());
    runner(12, 0xA1)
        .run(&strategy, |(n, intro, seed)| {
            let set = if intro { FurnishingSet::Introductory } else { FurnishingSet::Full };
            assert_replays_complete(&simulate(n, set, BotChoice::All(BotKind::Random), seed));
            Ok(())
        })
        .unwrap();
}

/// Strategy bots: every player count, alternating the furnishing set and the bots (weapons,
/// peaceful, mixed seats); the weapons bot forges, the peaceful bot never does.
#[test]
fn a_strategy_games_of_every_size_replay_complete() {
    for s in strategy_pool() {
        assert_replays_complete(s);
        for (p, kind) in s.kinds.iter().enumerate() {
            let armed = s.sim.game.player(p).dwarfs.iter().any(|d| d.weapon.is_some());
            if *kind == BotKind::Peaceful {
                assert!(!armed, "{} players: peaceful seat {p} holds a weapon", s.players);
            }
        }
    }
    // Over a few games the weapons bot arms its dwarfs.
    let armed = (0..3u64)
        .map(|i| simulate(2, FurnishingSet::Full, BotChoice::All(BotKind::Weapons), bots::game_seed(31, i)))
        .filter(|s| s.sim.game.players().iter().all(|p| p.dwarfs.iter().any(|d| d.weapon.is_some())))
        .count();
    assert!(armed >= 2, "weapons bots armed in only {armed} of 3 games");
}

/// A simulated log is a valid document of the JSON Schema too.
#[test]
fn a_simulated_logs_match_the_schema() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/caverna-log-1.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::draft202012::options().build(&schema).unwrap();
    for s in pool().iter().step_by(3) {
        let log: Value = serde_json::from_str(&s.log).unwrap();
        let errors: Vec<String> =
            validator.iter_errors(&log).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{} players: {errors:?}", s.players);
    }
}

// ---------------------------------------------------------------------------------------------
// (b) what the generator offers is accepted by the replay
// ---------------------------------------------------------------------------------------------

fn entries_of(log: &str) -> (Value, Vec<Value>) {
    let mut v: Value = serde_json::from_str(log).unwrap();
    let entries = v["entries"].as_array().cloned().unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("claimed");
    }
    (v, entries)
}

fn with_entries(doc: &Value, entries: Vec<Value>) -> Vec<u8> {
    let mut doc = doc.clone();
    doc["entries"] = Value::Array(entries);
    doc.to_string().into_bytes()
}

#[test]
fn b_every_generated_decision_is_accepted_by_replay() {
    let strategy = (0..pool().len(), 0.0f64..1.0, prop::collection::vec(any::<prop::sample::Index>(), 4));
    runner(24, 0xB2)
        .run(&strategy, |(which, at, picks)| {
            let s = &pool()[which];
            let (doc, entries) = entries_of(&s.log);
            let m = ((entries.len() as f64) * at) as usize;
            let prefix = with_entries(&doc, entries[..m].to_vec());
            let r = replay_until(&prefix, Some(m));
            prop_assert!(r.error.is_none(), "prefix {m} invalid: {:?}", r.error);
            let game = r.game.unwrap();
            let offered = legal_entries(&game, &Limits::default());
            if matches!(game.phase(), Phase::Work { .. } | Phase::HarvestChoice) {
                prop_assert!(!offered.is_empty(), "nothing offered at entry {m} ({:?})", game.phase());
            }
            for pick in picks {
                if offered.is_empty() {
                    break;
                }
                let entry = pick.get(&offered);
                let mut extended = entries[..m].to_vec();
                extended.push(serde_json::to_value(entry).unwrap());
                let r = replay(&with_entries(&doc, extended));
                prop_assert!(
                    r.status != Status::Invalid,
                    "{} players, entry {m}: offered {} rejected: {:?}",
                    s.players,
                    serde_json::to_string(entry).unwrap(),
                    r.error
                );
            }
            Ok(())
        })
        .unwrap();
}

/// The alternatives the service offers at an illegal entry (`GameEngine::legal_next`, the API's
/// `legalEntries`): a simulated game's prefix followed by an entry made illegal (its player's
/// entry repeated, a space on the wrong player's turn); every offered entry, put in its place,
/// replays as legal, and the game's own next entry is among them when the generator enumerates
/// whole at that point.
#[test]
fn b_alternatives_at_an_illegal_entry_are_legal() {
    use chronicle_caverna::Caverna;
    use chronicle_game::GameEngine;
    let strategy = (0..pool().len(), 0.05f64..0.95, prop::collection::vec(any::<prop::sample::Index>(), 4));
    runner(16, 0xB3)
        .run(&strategy, |(which, at, picks)| {
            let s = &pool()[which];
            let (doc, entries) = entries_of(&s.log);
            let m = ((entries.len() as f64) * at) as usize;
            // The previous entry again: never legal right after itself for the same player.
            let mut bad = entries[..m].to_vec();
            bad.push(entries[m.saturating_sub(1)].clone());
            let log = with_entries(&doc, bad);
            let verdict = Caverna::verdict(&Caverna::replay(&log));
            prop_assume!(verdict.error.as_ref().and_then(|e| e.entry) == Some(m));
            let legal = Caverna::legal_next(&log, 10_000);
            let actual = &entries[m];
            if legal.complete {
                prop_assert!(legal.entries.contains(actual), "entry {m}: the game's own entry is not offered");
            }
            for pick in picks {
                if legal.entries.is_empty() {
                    break;
                }
                let entry = pick.get(&legal.entries).clone();
                let mut fixed = entries[..m].to_vec();
                fixed.push(entry.clone());
                let r = replay(&with_entries(&doc, fixed));
                prop_assert!(
                    r.status != Status::Invalid,
                    "{} players, entry {m}: {entry} rejected: {:?}",
                    s.players,
                    r.error
                );
            }
            Ok(())
        })
        .unwrap();
}

/// The step-by-step form (`chronicle_caverna::steps`, the API's `entrySteps`) at a simulated
/// game's `place` entries: the game's own entry is reachable through it — its space and dwarf
/// offered, each action offered in its part (an expedition's loot and an imitation's actions
/// one at a time), free actions accepted — and the finished draft is that entry; every option
/// sampled along the way continues a legal draft, and every finished entry replays as legal.
#[test]
fn b_the_next_placement_is_reachable_through_the_step_form() {
    use chronicle_caverna::notation::{Action, Entry};
    use chronicle_caverna::steps::{steps, Draft, Steps};
    fn offered(st: &Steps, draft: &Draft) -> bool {
        st.groups.iter().any(|g| g.options.iter().any(|o| o.draft == *draft))
    }
    /// The drafts an action is built through: loot and imitated actions one at a time.
    fn stages(a: &Action) -> Vec<Action> {
        match a {
            Action::Expedition { loot } => {
                (loot.len().min(1)..=loot.len()).map(|k| Action::Expedition { loot: loot[..k].to_vec() }).collect()
            }
            Action::Imitate { actions, .. } if actions.is_empty() => vec![a.clone()],
            Action::Imitate { space, actions } => (1..=actions.len())
                .flat_map(|k| {
                    stages(&actions[k - 1]).into_iter().map(move |last| {
                        let mut nested = actions[..k - 1].to_vec();
                        nested.push(last);
                        Action::Imitate { space: *space, actions: nested }
                    })
                })
                .collect(),
            other => vec![other.clone()],
        }
    }
    let strategy = (0..pool().len(), 0.0f64..1.0, prop::collection::vec(any::<prop::sample::Index>(), 3));
    runner(40, 0xB4)
        .run(&strategy, |(which, at, picks)| {
            let s = &pool()[which];
            let (doc, entries) = entries_of(&s.log);
            // The first `place` entry at or after the sampled point.
            let from = ((entries.len() as f64) * at) as usize;
            let Some(m) = (from..entries.len()).find(|&i| entries[i]["type"] == "place") else { return Ok(()) };
            let game = replay_until(&with_entries(&doc, entries[..m].to_vec()), Some(m)).game.unwrap();
            let actual: Entry = serde_json::from_value(entries[m].clone()).unwrap();
            let Entry::Place { player, space, dwarf, ruby, actions } = actual.clone() else { unreachable!() };
            let mut draft = Draft::new(player as usize);
            let st = steps(&game, &draft).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            draft.space = Some(space);
            prop_assert!(offered(&st, &draft), "entry {m}: space {space:?} not offered");
            let st = steps(&game, &draft).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            let pick = chronicle_caverna::steps::Pick { dwarf, ruby };
            let mut draft = if st.draft.pick.is_some() {
                prop_assert_eq!(st.draft.pick.clone(), Some(pick), "entry {}: another dwarf chosen", m);
                st.draft.clone()
            } else {
                let d = Draft { pick: Some(pick), ..draft.clone() };
                prop_assert!(offered(&st, &d), "entry {m}: dwarf {dwarf:?} not offered");
                d
            };
            let mut samples = picks.into_iter();
            for a in &actions {
                for (k, stage) in stages(a).into_iter().enumerate() {
                    let st = steps(&game, &draft).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
                    let options: Vec<_> = st.groups.iter().flat_map(|g| &g.options).collect();
                    if let (Some(pick), false) = (samples.next(), options.is_empty()) {
                        let o = pick.get(&options);
                        let next = steps(&game, &o.draft);
                        prop_assert!(next.is_ok(), "entry {m}: offered {} refused: {next:?}", o.label);
                    }
                    let mut next = draft.clone();
                    if k > 0 {
                        next.actions.pop();
                    }
                    next.actions.push(stage);
                    prop_assert!(
                        a.is_free() || offered(&st, &next),
                        "{} players, entry {m}: {} not offered after {:?}",
                        s.players,
                        serde_json::to_string(&next.actions.last()).unwrap(),
                        draft.actions
                    );
                    draft = next;
                }
            }
            let st = steps(&game, &draft).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            prop_assert_eq!(st.entry.as_ref(), Some(&actual), "entry {}: the finished draft differs", m);
            let mut extended = entries[..m].to_vec();
            extended.push(serde_json::to_value(st.entry.unwrap()).unwrap());
            prop_assert!(replay(&with_entries(&doc, extended)).status != Status::Invalid);
            Ok(())
        })
        .unwrap();
}

/// At every decision of one game per player count, the generator offers something (a bot
/// cannot get stuck), checked along the whole game.
#[test]
fn b_required_decisions_always_have_options() {
    for s in pool().iter().step_by(3) {
        let (doc, entries) = entries_of(&s.log);
        let bytes = with_entries(&doc, entries.clone());
        for m in (0..entries.len()).step_by(7) {
            let game = replay_until(&bytes, Some(m)).game.unwrap();
            if matches!(game.phase(), Phase::Work { .. } | Phase::HarvestChoice) {
                let offered = chronicle_caverna::legal::places(
                    &game,
                    game.to_move().unwrap_or(0),
                    &Limits { options_alone: 2, options_per_part: 1, loot_sets: 1, per_space: 1, only_tile: None },
                    &mut chronicle_caverna::legal::Enumerate,
                );
                assert!(
                    game.to_move().is_none() || !offered.is_empty(),
                    "{} players: no placement at entry {m}",
                    s.players
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (c) mutations of valid logs are legal or rejected where they happen, never a panic
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Mutation {
    Space,
    Coordinates,
    Tile,
    Player,
    Drop,
    Duplicate,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        Just(Mutation::Space),
        Just(Mutation::Coordinates),
        Just(Mutation::Tile),
        Just(Mutation::Player),
        Just(Mutation::Drop),
        Just(Mutation::Duplicate),
    ]
}

/// JSON pointers (within `v`) to every value for which `pick(key, value)` holds; `key` is the
/// object key the value stands under, if any.
fn pointers(
    v: &Value,
    here: String,
    key: Option<&str>,
    pick: &dyn Fn(Option<&str>, &Value) -> bool,
    out: &mut Vec<String>,
) {
    if pick(key, v) {
        out.push(here);
        return;
    }
    match v {
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| pointers(x, format!("{here}/{i}"), None, pick, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| pointers(x, format!("{here}/{k}"), Some(k), pick, out)),
        _ => {}
    }
}

/// Every `[row, col]` pair inside an entry (cells, `at`, sowing lists).
fn is_coordinate(_: Option<&str>, v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.len() == 2 && a.iter().all(Value::is_i64))
}

/// Every `"tile"` value inside an entry.
fn is_tile(key: Option<&str>, _: &Value) -> bool {
    key == Some("tile")
}

/// The `choice`-th of the values `pick` selects in `entry`, if any.
fn slot<'a>(entry: &'a mut Value, pick: &dyn Fn(Option<&str>, &Value) -> bool, choice: u64) -> Option<&'a mut Value> {
    let mut found = Vec::new();
    pointers(entry, String::new(), None, pick, &mut found);
    let at = found.get((choice % found.len().max(1) as u64) as usize)?.clone();
    entry.pointer_mut(&at)
}

/// Applies the mutation to entry `k` (or the nearest entry it applies to). Returns the index
/// of the mutated entry, or `None` when the log has nothing to mutate that way.
fn mutate(entries: &mut Vec<Value>, k: usize, m: Mutation, r: &[u64; 3]) -> Option<usize> {
    let n = entries.len();
    let find = |entries: &[Value], ok: &dyn Fn(&Value) -> bool| (0..n).map(|i| (k + i) % n).find(|&i| ok(&entries[i]));
    match m {
        Mutation::Space => {
            let i = find(entries, &|e| e["type"] == "place")?;
            let space = ActionSpace::ALL[(r[0] % ActionSpace::ALL.len() as u64) as usize];
            entries[i]["space"] = serde_json::to_value(space).ok()?;
            Some(i)
        }
        Mutation::Coordinates => {
            let has = |e: &Value| {
                let mut found = Vec::new();
                pointers(e, String::new(), None, &is_coordinate, &mut found);
                !found.is_empty()
            };
            let i = find(entries, &has)?;
            // Rows −2..5 and columns −2..7: on the board, in the Office-room ring and off it.
            *slot(&mut entries[i], &is_coordinate, r[0])? = json!([(r[1] % 8) as i64 - 2, (r[2] % 10) as i64 - 2]);
            Some(i)
        }
        Mutation::Tile => {
            let i = find(entries, &|e| e.to_string().contains("\"tile\""))?;
            let tiles: Vec<Furnishing> = Furnishing::all().collect();
            *slot(&mut entries[i], &is_tile, r[1])? =
                serde_json::to_value(tiles[(r[0] % tiles.len() as u64) as usize]).ok()?;
            Some(i)
        }
        Mutation::Player => {
            let i = k % n;
            entries[i]["player"] = json!(r[0] % 8);
            Some(i)
        }
        Mutation::Drop => {
            let i = k % n;
            entries.remove(i);
            (i < entries.len()).then_some(i)
        }
        Mutation::Duplicate => {
            let i = k % n;
            let copy = entries[i].clone();
            entries.insert(i + 1, copy);
            Some(i + 1)
        }
    }
}

#[test]
fn c_mutated_logs_are_legal_or_rejected_where_mutated() {
    let strategy = (0..pool().len(), any::<prop::sample::Index>(), mutation(), any::<[u64; 3]>());
    runner(64, 0xC3)
        .run(&strategy, |(which, at, m, r)| {
            let s = &pool()[which];
            let (doc, mut entries) = entries_of(&s.log);
            let k = at.index(entries.len());
            let Some(i) = mutate(&mut entries, k, m, &r) else { return Ok(()) };
            let mutated = with_entries(&doc, entries.clone());
            let full = replay(&mutated);
            if let Some(e) = &full.error {
                let at = e.entry.unwrap_or(usize::MAX);
                prop_assert!(at >= i && at != usize::MAX, "{m:?} at {i}: rejected earlier, at {at}: {e:?}");
                prop_assert!(full.game.is_some(), "an entry error keeps the state before it");
            }
            let cut = replay(&with_entries(&doc, entries[..=i].to_vec()));
            match &cut.error {
                None => {}
                Some(e) => prop_assert_eq!(e.entry, Some(i), "{:?}: {:?}", m, e),
            }
            Ok(())
        })
        .unwrap();
}
