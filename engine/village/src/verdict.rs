//! Village behind the game-agnostic [`GameEngine`] trait: the verdict of a replay in shared
//! terms, the state view, legal entries, the walk (the ledger and the timeline) and simulation.

use chronicle_game::{player_verdicts, Counter, GameEngine, GameKind, Legal, LogError, StateAt, Verdict, Walk};
use serde_json::Value;

use crate::game::{Loc, Player};
use crate::replay::{replay, replay_until, Replay, ENGINE_VERSION};

/// The Village engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Village;

impl GameEngine for Village {
    const KIND: GameKind = GameKind::Village;
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
            round: u16::try_from(game.round).unwrap_or(u16::MAX),
            phase: game.phase_id().to_owned(),
            state: crate::view::state_json(game),
        })
    }

    fn legal_entries(r: &Replay, limit: usize) -> Legal {
        let Some(game) = r.game.as_ref().filter(|_| r.error.is_none()) else {
            return Legal { entries: Vec::new(), complete: true };
        };
        let (entries, complete) = crate::legal::legal_entries(game, limit);
        Legal { entries: entries.iter().filter_map(|e| serde_json::to_value(e).ok()).collect(), complete }
    }

    /// Any entry the game waits for, built one decision at a time ([`crate::steps`] documents
    /// the draft's shape and what each step offers).
    fn entry_steps(r: &Replay, draft: &Value) -> Result<chronicle_game::Steps, String> {
        let Some(game) = r.game.as_ref().filter(|_| r.error.is_none()) else {
            return Err("the log is not legal up to here; there is no position to build on".into());
        };
        crate::steps::steps(game, draft)
    }

    fn walk(log: &[u8], visit: Walk<'_>) {
        crate::ledger::walk(log, visit);
    }

    /// Each entry as a sentence with what it cost in time (`crate::sentence`).
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
        Some(include_str!("../../../docs/rules/village.md").to_owned())
    }

    fn simulate(seed: u64, players: u8) -> Result<Value, String> {
        crate::bots::simulate(seed, players)
    }

    /// The engine's own alternating bots, or pool members at the seats
    /// ([`crate::bots::simulate_seated`]); no choice of a bot for every seat, no variants.
    fn simulate_with(seed: u64, players: u8, choice: &chronicle_game::Simulation) -> Result<Value, String> {
        match (choice.bot, choice.variant, choice.seats) {
            (None, None, None) => crate::bots::simulate(seed, players),
            (None, None, Some(seats)) => crate::bots::simulate_seated(seed, players, seats),
            _ => Err("Village games are played by its engine's own bots or a pool, with no choice of bot or variant"
                .to_owned()),
        }
    }
}

/// The game-agnostic verdict of a Village replay.
pub fn verdict(r: &Replay) -> Verdict {
    let game = r.game.as_ref();
    let players = game.map_or_else(Vec::new, |g| {
        let names = g.players.iter().map(|p| p.name.clone());
        let scores = r.scores.as_ref().map(|s| s.iter().map(|p| p.score()).collect());
        let mut players = player_verdicts(names, scores, &r.winners, r.claimed.as_deref());
        if r.scores.is_some() {
            for (v, p) in players.iter_mut().zip(&g.players) {
                v.counters = counters(p);
            }
        }
        players
    });
    Verdict {
        game: Some(GameKind::Village),
        engine_version: ENGINE_VERSION.to_owned(),
        status: r.status,
        error: r.error.as_ref().map(|e| LogError::new(e.entry, e.player, e.code.as_str(), &e.message)),
        meta: r.meta.clone(),
        variant: None,
        player_count: game.map(|g| u8::try_from(g.player_count()).unwrap_or(u8::MAX)),
        round_reached: u16::try_from(r.round()).unwrap_or(u16::MAX),
        entries_applied: r.entries_applied,
        players,
        synthetic_data: game.is_some_and(|g| chronicle_game::is_synthetic(g.components().source.as_deref())),
    }
}

/// The player's counters of `VILLAGE.counters`, read from the final state: the replay keeps
/// where every member ended and what each player holds, not how often an action was taken, so
/// these count results (cities with the player's disc, buildings still staffed), not actions.
pub fn counters(p: &Player) -> Vec<Counter> {
    let mut crafts: Vec<Loc> = p.members.iter().map(|m| m.loc).filter(|l| matches!(l, Loc::Craft(_))).collect();
    crafts.sort_unstable();
    crafts.dedup();
    let members = |f: fn(Loc) -> bool| p.members.iter().filter(|m| f(m.loc)).count();
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    vec![
        Counter::new("cities_visited", count(p.discs.len())),
        Counter::new("crafts_held", count(crafts.len())),
        Counter::new("customers_served", count(p.customers.len())),
        Counter::new("chronicle_members", count(members(|l| matches!(l, Loc::Chronicle(_))))),
        Counter::new("church_members", count(members(|l| matches!(l, Loc::Church(_))))),
        Counter::new("first_travel_round", p.first_travel.map_or(0, i64::from)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counters agree with the score rows computed from the same state (E.3: travel points
    /// by cities visited), on simulated games of every size.
    #[test]
    fn counters_agree_with_the_score_rows() {
        for players in 1..=4u8 {
            let log = crate::bots::simulate(u64::from(players), players).expect("simulated");
            let v = verdict(&replay(&serde_json::to_vec(&log).expect("json")));
            assert_eq!(v.status, chronicle_game::Status::Complete);
            for p in &v.players {
                let c = |id: &str| p.counters.iter().find(|c| c.id == id).map(|c| c.value);
                let ids: Vec<&str> = p.counters.iter().map(|c| c.id.as_str()).collect();
                let spec: Vec<&str> = chronicle_game::kind::VILLAGE.counters.iter().map(|c| c.id).collect();
                assert_eq!(ids, spec);
                let cities = usize::try_from(c("cities_visited").unwrap_or(-1)).expect("a count");
                let travel = crate::rules::scoring::travel_points(cities);
                assert_eq!(Some(travel), p.score.as_ref().and_then(|s| s.row("travel")));
                let chronicle = usize::try_from(c("chronicle_members").unwrap_or(-1)).expect("a count");
                let points = crate::rules::scoring::chronicle_points(chronicle);
                assert_eq!(Some(points), p.score.as_ref().and_then(|s| s.row("chronicle")));
            }
        }
    }
}
