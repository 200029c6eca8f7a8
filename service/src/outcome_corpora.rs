//! The outcome statistics' rows of the games that report per-player counters (Village, Above
//! and Below; `GameSpec::counters`), one [`OutcomeCorpus`] per game, kept in memory like
//! Caverna's statistics: loaded at start from the stored complete games, extended as games are
//! stored. Queries read every kept game of their kind (these corpora are small; see
//! docs/performance.md for 100,000 player-games).

use std::collections::BTreeMap;
use std::sync::RwLock;

use chronicle_analytics::outcomes::{GameOutcome, OutcomeCorpus, OutcomeFilter, OutcomeReport, PlayerOutcome};
use chronicle_game::{GameKind, Status};
use chronicle_store::record::GameRecord;

/// The corpora by game.
#[derive(Debug)]
pub struct OutcomeCorpora {
    by_game: RwLock<BTreeMap<GameKind, OutcomeCorpus>>,
}

/// The games that have outcome statistics: those whose spec declares counters.
pub fn has_outcomes(kind: GameKind) -> bool {
    !kind.spec().counters.is_empty()
}

fn empty() -> BTreeMap<GameKind, OutcomeCorpus> {
    let corpus = |k: GameKind| {
        let spec = k.spec();
        let rows: Vec<&str> = spec.score_rows.iter().map(|r| r.id).collect();
        let counters: Vec<&str> = spec.counters.iter().map(|c| c.id).collect();
        OutcomeCorpus::new(&rows, &counters)
    };
    GameKind::ALL.iter().copied().filter(|&k| has_outcomes(k)).map(|k| (k, corpus(k))).collect()
}

impl Default for OutcomeCorpora {
    fn default() -> Self {
        OutcomeCorpora { by_game: RwLock::new(empty()) }
    }
}

/// The outcome row of a stored game: complete games of a game with counters only. A complete
/// player without a score is an error (the store's invariant is broken), not a row to skip.
pub fn outcome(game_id: i64, r: &GameRecord) -> Result<Option<(GameKind, GameOutcome)>, String> {
    let Some(kind) = r.game.filter(|&k| has_outcomes(k) && r.status == Status::Complete) else {
        return Ok(None);
    };
    let mut players = Vec::with_capacity(r.players.len());
    for p in &r.players {
        let score = p.score.as_ref().ok_or_else(|| format!("game {game_id}: complete without a score"))?;
        players.push(PlayerOutcome {
            seat: u8::try_from(p.seat).map_err(|_| format!("game {game_id}: seat {} out of range", p.seat))?,
            winner: p.winner,
            total: score.total,
            rows: score.rows.iter().map(|row| (row.id.clone(), row.points)).collect(),
            counters: p.counters.iter().map(|c| (c.id.clone(), c.value)).collect(),
        });
    }
    Ok(Some((kind, GameOutcome { game_id, source: r.meta.source.clone(), synthetic: r.synthetic_data, players })))
}

impl OutcomeCorpora {
    /// Corpora of these games (those without outcome statistics are skipped).
    pub fn from_games(games: &[(GameKind, GameOutcome)]) -> OutcomeCorpora {
        let corpora = OutcomeCorpora::default();
        corpora.add(games);
        corpora
    }

    /// Replaces every corpus with those of `other`.
    pub fn replace_with(&self, other: OutcomeCorpora) {
        let fresh = other.by_game.into_inner().unwrap_or_else(|e| e.into_inner());
        *self.by_game.write().unwrap_or_else(|e| e.into_inner()) = fresh;
    }

    pub fn add(&self, games: &[(GameKind, GameOutcome)]) {
        if games.is_empty() {
            return;
        }
        let mut by_game = self.by_game.write().unwrap_or_else(|e| e.into_inner());
        for (kind, game) in games {
            if let Some(c) = by_game.get_mut(kind) {
                c.add(game);
            }
        }
    }

    /// The statistics of one game's kept games (`None` for a game without outcome statistics).
    pub fn report(&self, kind: GameKind, filter: &OutcomeFilter) -> Option<OutcomeReport> {
        let by_game = self.by_game.read().unwrap_or_else(|e| e.into_inner());
        by_game.get(&kind).map(|c| c.report(filter))
    }
}
