//! Caverna behind the game-agnostic [`GameEngine`] trait: the verdict of a replay in shared
//! terms, the state view, legal entries and simulation.

use chronicle_game::{player_verdicts, GameEngine, GameKind, Legal, LogError, Simulation, StateAt, Verdict, Walk};

use crate::game::Phase;
use serde_json::Value;

use crate::bots::{seat_bots, seat_kinds, simulate_game, simulate_seat_bots, simulated_setup, BotChoice, BotKind};
use crate::legal::{legal_entries, Limits};
use crate::notation::FurnishingSet;
use crate::replay::{replay, replay_until, Replay, ENGINE_VERSION};
use crate::steps::{steps, Draft};

/// The engine's own types as JSON (which cannot fail: they hold no maps with non-string keys).
fn json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The Caverna engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caverna;

impl GameEngine for Caverna {
    const KIND: GameKind = GameKind::Caverna;
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
        let entries = legal_entries(game, &Limits::default());
        // `legal.rs` lists what its generator leaves out in the work phase (free actions, the
        // Builder's substitutions, some combinations, loot sets, market purchases) and in
        // feeding; the harvest choice and solo keep decisions are enumerated whole.
        let whole_phase =
            matches!(game.phase(), Phase::HarvestChoice | Phase::Keep | Phase::Over | Phase::BeforeScoring);
        let complete = whole_phase && entries.len() <= limit;
        Legal { entries: entries.iter().take(limit).filter_map(|e| serde_json::to_value(e).ok()).collect(), complete }
    }

    /// Each entry as its button says it, with the food owed and what it will cost
    /// ([`crate::consequences`]).
    fn describe_next(r: &Replay, entries: &[Value]) -> Vec<String> {
        let names: Vec<String> =
            r.game.as_ref().map_or_else(Vec::new, |g| g.players().iter().map(|p| p.name.to_string()).collect());
        entries
            .iter()
            .map(|e| match (r.game.as_ref(), serde_json::from_value::<crate::notation::Entry>(e.clone())) {
                (Some(game), Ok(entry)) => crate::consequences::label(game, &entry),
                _ => chronicle_game::view::entry_words(&e.to_string(), &names),
            })
            .collect()
    }

    fn entry_steps(r: &Replay, draft: &Value) -> Result<chronicle_game::Steps, String> {
        let Some(game) = r.game.as_ref().filter(|_| r.error.is_none()) else {
            return Err("the log is not legal up to here; there is no position to build on".into());
        };
        // `null` starts the placement of the player to move; a harvest decision (no player to
        // move) is chosen whole from the legal entries.
        let draft = match (draft, game.to_move()) {
            (Value::Null, Some(p)) => serde_json::json!({ "player": p }),
            (Value::Null, None) => return Err("this decision is chosen whole from the legal entries".into()),
            (d, _) => d.clone(),
        };
        let draft: Draft = serde_json::from_value(draft)
            .map_err(|e| format!("the draft is not a `place` draft: {}", crate::messages::notation(&e.to_string())))?;
        let st = steps(game, &draft).map_err(|refusal| {
            let message = &refusal.error.message;
            match refusal.action {
                Some(i) => format!("action {i} of the draft: {message} ({})", refusal.error.code.as_str()),
                None => format!("{message} ({})", refusal.error.code.as_str()),
            }
        })?;
        Ok(chronicle_game::Steps {
            draft: json(&st.draft),
            entry: st.entry.as_ref().map(json),
            groups: st
                .groups
                .into_iter()
                .map(|g| chronicle_game::StepGroup {
                    id: g.id.to_owned(),
                    label: g.label,
                    options: g
                        .options
                        .into_iter()
                        .map(|o| chronicle_game::StepChoice {
                            label: o.label,
                            draft: json(&o.draft),
                            cells: o
                                .cells
                                .into_iter()
                                .map(|(at, what)| chronicle_game::ChoiceCell { at, what })
                                .collect(),
                            pick: o.pick,
                            detail: o.detail,
                        })
                        .collect(),
                })
                .collect(),
            complete: st.complete,
            unavailable: st
                .unavailable
                .into_iter()
                .map(|(label, reason)| chronicle_game::Unavailable { label, reason })
                .collect(),
        })
    }

    fn walk(log: &[u8], visit: Walk<'_>) {
        crate::ledger::walk(log, visit);
    }

    fn free_start(player: usize) -> Option<(String, Value)> {
        let start = serde_json::json!({ "type": "free", "player": player, "actions": [] });
        Some(("Free action (conversions, ruby trades, tile uses) for any player".to_owned(), start))
    }

    fn setup_form(players: u8) -> Option<chronicle_game::setup_form::SetupForm> {
        crate::setup_form::setup_form(players)
    }

    fn setup_from_form(filled: &chronicle_game::setup_form::FilledSetup) -> Result<Value, Vec<String>> {
        crate::setup_form::setup_from_form(filled)
    }

    /// Generated from the engine's own tables (docs/rules/caverna.md is this text).
    fn rules_reference() -> Option<String> {
        Some(crate::reference::markdown())
    }

    /// Every placement, judged by the strong bot (see [`crate::analysis`]).
    fn analysis_moves(log: &[u8]) -> Result<Vec<usize>, String> {
        crate::analysis::analysis_moves(log)
    }

    fn analyse_move(
        log: &[u8],
        entry: usize,
        budget: u32,
        seed: u64,
    ) -> Result<chronicle_game::analysis::MoveAnalysis, String> {
        crate::analysis::analyse_move(log, entry, budget, seed)
    }

    fn simulate(seed: u64, players: u8) -> Result<Value, String> {
        Self::simulate_with(seed, players, &Simulation { bot: Some("mixed"), ..Simulation::default() })
    }

    /// Seats the chosen bot (`random`, `weapons`, `peaceful`, or `mixed`: one of the three
    /// per seat, drawn from the seed; `random` by default) on the chosen furnishing set
    /// (`full` by default, or `introductory`).
    ///
    /// With `seats` (pool members), each seat is played by its member ([`crate::bots::Seated`]);
    /// a bot choice is then refused.
    fn simulate_with(seed: u64, players: u8, choice: &Simulation) -> Result<Value, String> {
        let furnishings: FurnishingSet = serde_json::from_value(Value::from(choice.variant.unwrap_or("full")))
            .map_err(|_| format!("Caverna has no furnishing set `{}`", choice.variant.unwrap_or_default()))?;
        if let Some(seats) = choice.seats {
            chronicle_game::pool::check_seats(seats, players, choice.bot)?;
            return crate::bots::simulate_seated(seats, furnishings, seed).map(|s| s.log()).map_err(|e| e.to_string());
        }
        let chosen = choice.bot.unwrap_or("random");
        if chosen.contains(',') || chosen == "strong" || choice.budget.is_some() {
            let seats = seat_bots(chosen, usize::from(players), seed, choice.budget)?;
            return simulate_seat_bots(&seats, furnishings, seed).map(|s| s.log()).map_err(|e| e.to_string());
        }
        let bots = match chosen {
            "mixed" => BotChoice::Mixed,
            id => BotChoice::All(
                BotKind::ALL
                    .into_iter()
                    .find(|k| k.id() == id)
                    .ok_or_else(|| format!("no Caverna bot is called `{id}`"))?,
            ),
        };
        let kinds = seat_kinds(bots, usize::from(players), seed);
        let setup = simulated_setup(&kinds, furnishings, seed);
        simulate_game(&setup, &kinds, seed).map_err(|e| e.to_string())
    }
}

/// The game-agnostic verdict of a Caverna replay.
pub fn verdict(r: &Replay) -> Verdict {
    let game = r.game.as_ref();
    let players = game.map_or_else(Vec::new, |g| {
        let names = g.players().iter().map(|p| p.name.to_string());
        let scores = r.scores.as_ref().map(|s| s.iter().map(|p| p.score.score()).collect());
        let mut players = player_verdicts(names, scores, &r.winners, r.claimed.as_deref());
        for (p, id) in players.iter_mut().zip(&g.setup().ids) {
            p.id.clone_from(id);
        }
        players
    });
    Verdict {
        game: Some(GameKind::Caverna),
        engine_version: ENGINE_VERSION.to_owned(),
        status: r.status,
        error: r.error.as_ref().map(|e| LogError::new(e.entry, e.player, e.code.as_str(), &e.message)),
        meta: r.meta.clone(),
        variant: game.map(|g| g.setup().furnishings.id().to_owned()),
        player_count: game.map(|g| u8::try_from(g.setup().players()).unwrap_or(u8::MAX)),
        round_reached: u16::from(r.round()),
        entries_applied: r.entries_applied,
        players,
        synthetic_data: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chronicle_game::Status;

    #[test]
    fn the_verdict_of_a_simulated_game_names_every_score_row() {
        let log = Caverna::simulate(7, 3).unwrap_or_default().to_string();
        let v = Caverna::verdict(&Caverna::replay(log.as_bytes()));
        assert_eq!(v.status, Status::Complete);
        assert_eq!(v.variant.as_deref(), Some("full"));
        assert_eq!(v.player_count, Some(3));
        for p in &v.players {
            let score = p.score.as_ref().map(|s| s.rows.len());
            assert_eq!(score, Some(chronicle_game::kind::CAVERNA.score_rows.len()));
            assert!(p.rank.is_some());
        }
        assert!(v.players.iter().any(|p| p.winner && p.rank == Some(1)));
    }

    #[test]
    fn state_at_refuses_entries_past_the_first_illegal_one() {
        let log = br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}, {"name": "B"}], "seed": 1},
            "entries": [{"type": "place", "player": 0, "space": "supplies"}, {"type": "place", "player": 0, "space": "logging"}]}"#;
        assert!(Caverna::state_at(log, Some(0)).is_ok());
        assert!(Caverna::state_at(log, Some(1)).is_err_and(|e| e.contains("not legal")));
        assert!(Caverna::state_at(log, Some(5)).is_err());
        assert_eq!(Caverna::state_at(log, None).map(|s| s.round).ok(), Some(1));
    }

    #[test]
    fn refused_drafts_name_players_by_name_and_seat() {
        let log = br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": 1}, "entries": []}"#;
        let r = Caverna::replay(log);
        let refused = |draft: serde_json::Value| Caverna::entry_steps(&r, &draft).err().unwrap_or_default();
        let turn = serde_json::json!({"type": "place", "player": 1});
        assert_eq!(refused(turn), "Ada (seat 1) is to place a dwarf, not Bo (seat 2) (not_your_turn)");
        let unknown = serde_json::json!({"type": "place", "player": 2});
        assert_eq!(refused(unknown), "`player` 2 names no seat: this game has 2 players (seats 1–2) (unknown_player)");
    }

    #[test]
    fn legal_entries_are_log_entries_for_the_player_to_move() {
        let log = br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}, {"name": "B"}], "seed": 1}, "entries": []}"#;
        let legal = Caverna::legal_entries(&Caverna::replay(log), 500);
        assert!(!legal.complete, "the work phase's generator leaves free actions out");
        let entries = legal.entries;
        assert!(!entries.is_empty());
        assert!(entries.iter().all(|e| e["player"] == 0));
    }
}
