//! Above and Below behind the game-agnostic [`GameEngine`] trait.

use chronicle_game::{player_verdicts, Counter, GameEngine, GameKind, Legal, LogError, StateAt, Verdict, Walk};
use serde_json::Value;

use crate::game::Player;
use crate::notation::CardKind;
use crate::replay::{replay, replay_until, Replay, ENGINE_VERSION};

/// The Above and Below engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AboveAndBelow;

impl GameEngine for AboveAndBelow {
    const KIND: GameKind = GameKind::AboveAndBelow;
    const VERSION: &'static str = ENGINE_VERSION;
    type Replay = Replay;

    fn replay(log: &[u8]) -> Replay {
        replay(log)
    }

    fn replay_until(log: &[u8], entries: usize) -> Replay {
        replay_until(log, Some(entries))
    }

    fn verdict(r: &Replay) -> Verdict {
        verdict(r)
    }

    fn parse_only(log: &[u8]) -> Result<usize, LogError> {
        crate::replay::parse_only(log).map_err(|e| LogError::new(e.entry, e.player, e.code.as_str(), &e.message))
    }

    fn state_view(r: &Replay) -> Option<StateAt> {
        let game = r.game.as_ref()?;
        Some(StateAt {
            round: u16::from(game.round()),
            phase: game.phase().id().to_owned(),
            state: crate::view::state_json(game),
        })
    }

    fn legal_entries(r: &Replay, limit: usize) -> Legal {
        let Some(game) = r.game.as_ref().filter(|_| r.error.is_none()) else {
            return Legal { entries: Vec::new(), complete: true };
        };
        let entries = crate::legal::legal_entries(game);
        // legal.rs leaves out free actions, most villager subsets and every Adventure Book
        // option but one (docs/rules/above-and-below.md "Legal entries"), so the list is
        // complete only when the game is over (no entries).
        let complete = entries.is_empty();
        Legal { entries: entries.into_iter().take(limit).collect(), complete }
    }

    /// The step form of `crate::steps`: one decision at a time, every option legal so far.
    fn entry_steps(r: &Replay, draft: &Value) -> Result<chronicle_game::Steps, String> {
        let Some(game) = r.game.as_ref().filter(|_| r.error.is_none()) else {
            return Err("the log is not legal up to here; there is no position to build on".into());
        };
        crate::steps::steps(game, draft)
    }

    /// A `store` entry (D.9.1): the one entry any player may write at any time.
    fn free_start(player: usize) -> Option<(String, Value)> {
        let start = serde_json::json!({ "type": "store", "player": player });
        Some(("Store goods on the storage track (any player, at any time)".to_owned(), start))
    }

    fn walk(log: &[u8], visit: Walk<'_>) {
        crate::ledger::walk(log, visit)
    }

    /// Each entry as a sentence against the position before it (`crate::sentence`).
    fn describe_next(r: &Replay, entries: &[Value]) -> Vec<String> {
        crate::sentence::describe_entries(r, entries)
    }

    fn setup_form(players: u8) -> Option<chronicle_game::setup_form::SetupForm> {
        crate::setup_form::setup_form(players)
    }

    fn setup_from_form(filled: &chronicle_game::setup_form::FilledSetup) -> Result<Value, Vec<String>> {
        crate::setup_form::setup_from_form(filled)
    }

    /// The project's reference of the rules as this engine implements them.
    fn rules_reference() -> Option<String> {
        Some(include_str!("../../../docs/rules/above-and-below.md").to_owned())
    }

    fn simulate(seed: u64, players: u8) -> Result<Value, String> {
        crate::bots::simulate(seed, players)
    }

    /// The engine's own bots, or pool members at the seats ([`crate::bots::simulate_seated`]);
    /// no choice of a bot for every seat, no variants.
    fn simulate_with(seed: u64, players: u8, choice: &chronicle_game::Simulation) -> Result<Value, String> {
        match (choice.bot, choice.variant, choice.seats) {
            (None, None, None) => crate::bots::simulate(seed, players),
            (None, None, Some(seats)) => crate::bots::simulate_seated(seed, players, seats),
            _ => Err(
                "Above and Below games are played by its engine's own bots or a pool, with no choice of bot or variant"
                    .to_owned(),
            ),
        }
    }

    /// The catalogue data the replay took as declared (G.5).
    fn trust_report(r: &Replay) -> Option<Value> {
        Some(crate::trust::report(r))
    }
}

/// The game-agnostic verdict of a replay.
pub fn verdict(r: &Replay) -> Verdict {
    let game = r.game.as_ref();
    let players = game.map_or_else(Vec::new, |g| {
        let names = g.players().iter().map(|p| p.name.clone());
        let scores = r.scores.as_ref().map(|s| s.iter().map(|p| p.score()).collect());
        let mut players = player_verdicts(names, scores, &r.winners, r.claimed.as_deref());
        if r.scores.is_some() {
            for (v, p) in players.iter_mut().zip(g.players()) {
                v.counters = counters(p);
            }
        }
        players
    });
    Verdict {
        game: Some(GameKind::AboveAndBelow),
        engine_version: ENGINE_VERSION.to_owned(),
        status: r.status,
        error: r.error.as_ref().map(|e| LogError::new(e.entry, e.player, e.code.as_str(), &e.message)),
        meta: r.meta.clone(),
        variant: None,
        player_count: game.map(|g| u8::try_from(g.players().len()).unwrap_or(u8::MAX)),
        round_reached: u16::from(r.round()),
        entries_applied: r.entries_applied,
        players,
        synthetic_data: game.is_some_and(|g| {
            chronicle_game::is_synthetic(g.setup.catalogue.source.as_deref())
                || chronicle_game::is_synthetic(g.setup.board.source.as_deref())
        }),
    }
}

/// The player's counters of `ABOVE_AND_BELOW.counters`, from the final state: houses and
/// outposts held, the reputation cube, the explorations the replay counted, the villagers
/// trained, and the villagers in the village (a villager lost in an encounter no longer
/// counts).
pub fn counters(p: &Player) -> Vec<Counter> {
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let houses = p.houses.iter().filter(|h| h.kind != CardKind::Starting).count();
    let outposts = p.caves.iter().filter(|c| c.outpost.is_some()).count();
    vec![
        Counter::new("houses_built", count(houses)),
        Counter::new("outposts_built", count(outposts)),
        Counter::new("reputation", i64::from(p.reputation)),
        Counter::new("explorations", i64::from(p.trust.explorations)),
        Counter::new("villagers_trained", i64::from(p.trained)),
        Counter::new("villagers", count(p.villagers.len())),
        Counter::new("first_exploration_round", p.first_exploration.map_or(0, i64::from)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counters agree with the score rows that count the same things (F.10 row 2: one
    /// point per house and outpost beyond the starting house), on simulated games.
    #[test]
    fn counters_agree_with_the_score_rows() {
        // D.6: each `train` turn of a complete game trains one villager.
        let trains = |log: &serde_json::Value, seat: usize| {
            let entries = log["entries"].as_array().map_or(&[][..], Vec::as_slice);
            let train =
                |e: &&serde_json::Value| e["type"] == "turn" && e["player"] == seat && e["action"]["do"] == "train";
            i64::try_from(entries.iter().filter(train).count()).unwrap_or(i64::MAX)
        };
        let mut trained_any = false;
        for seed in 0..4 {
            let log = crate::bots::simulate(seed, 2 + (seed % 3) as u8).expect("simulated");
            let v = verdict(&replay(&serde_json::to_vec(&log).expect("json")));
            assert_eq!(v.status, chronicle_game::Status::Complete);
            for (seat, p) in v.players.iter().enumerate() {
                let c = |id: &str| p.counters.iter().find(|c| c.id == id).map(|c| c.value);
                assert_eq!(c("villagers_trained"), Some(trains(&log, seat)), "seat {seat}");
                trained_any |= trains(&log, seat) > 0;
                let ids: Vec<&str> = p.counters.iter().map(|c| c.id.as_str()).collect();
                let spec: Vec<&str> = chronicle_game::kind::ABOVE_AND_BELOW.counters.iter().map(|c| c.id).collect();
                assert_eq!(ids, spec);
                let built = c("houses_built").unwrap_or(-1) + c("outposts_built").unwrap_or(-1);
                assert_eq!(Some(built), p.score.as_ref().and_then(|s| s.row("houses_outposts")));
                assert!(c("villagers").unwrap_or(0) >= 1);
            }
        }
        assert!(trained_any, "the simulated games train villagers");
    }
}
