//! A stored game as the outcome statistics read it, for the games that report per-player
//! counters (Village, Above and Below; `GameSpec::counters`). The counting step
//! ([`crate::tallies`]) turns these into the stored buckets every outcome report is added up
//! from.

use chronicle_analytics::outcomes::{GameOutcome, PlayerOutcome};
use chronicle_game::{GameKind, Status};
use chronicle_store::record::GameRecord;

/// The games that have outcome statistics: those whose spec declares counters.
pub fn has_outcomes(kind: GameKind) -> bool {
    !kind.spec().counters.is_empty()
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
