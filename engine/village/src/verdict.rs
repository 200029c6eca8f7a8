//! Village behind the game-agnostic [`GameEngine`] trait: the verdict of a replay in shared
//! terms, the state view, legal entries, the ledger and simulation.

use chronicle_game::{player_verdicts, GameEngine, GameKind, LedgerLine, Legal, LogError, Meta, StateAt, Verdict};
use serde_json::Value;

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

    fn ledger(log: &[u8]) -> Vec<LedgerLine> {
        crate::ledger::ledger(log)
    }

    fn simulate(seed: u64, players: u8) -> Result<Value, String> {
        crate::bots::simulate(seed, players)
    }
}

/// The game-agnostic verdict of a Village replay.
pub fn verdict(r: &Replay) -> Verdict {
    let game = r.game.as_ref();
    let players = game.map_or_else(Vec::new, |g| {
        let names = g.players.iter().map(|p| p.name.clone());
        let scores = r.scores.as_ref().map(|s| s.iter().map(|p| p.score()).collect());
        player_verdicts(names, scores, &r.winners, r.claimed.as_deref())
    });
    Verdict {
        game: Some(GameKind::Village),
        engine_version: ENGINE_VERSION.to_owned(),
        status: r.status,
        error: r.error.as_ref().map(|e| LogError {
            entry: e.entry,
            player: e.player,
            code: e.code.as_str().to_owned(),
            message: e.message.clone(),
        }),
        meta: Meta {
            id: r.meta.id.clone(),
            tournament: r.meta.tournament.clone(),
            played_at: r.meta.played_at.clone(),
            source: r.meta.source.clone(),
        },
        variant: None,
        player_count: game.map(|g| u8::try_from(g.player_count()).unwrap_or(u8::MAX)),
        round_reached: u16::try_from(r.round()).unwrap_or(u16::MAX),
        entries_applied: r.entries_applied,
        players,
    }
}
