// The analyses of stored games (`game_analyses`; docs/analysis.md, "On the server"). This file
// is `include!`d by `pg.rs` and `sqlite.rs` after `models.rs`; the service's analyses worker
// (service/src/analyses.rs) runs them, requests come from the API and the web app.

use crate::{AnalysisKey, AnalysisRow, AnalysisState};

type AnalysisTuple = (i64, String, i64, i64, String, i64, i64, Option<String>, Option<String>, i64, i64);

const ANALYSIS_COLUMNS: &str = "game_id, engine_version, budget, seed, state, done_moves, total_moves, result, \
     message, requested_at, updated_at";

fn analysis_of(
    (game_id, engine_version, budget, seed, state, done, total, result, message, requested_at, updated_at): AnalysisTuple,
) -> AnalysisRow {
    AnalysisRow {
        key: AnalysisKey { game_id, engine_version, budget, seed },
        state: AnalysisState::from_id(&state).unwrap_or(AnalysisState::Failed),
        done_moves: done,
        total_moves: total,
        result,
        message,
        requested_at,
        updated_at,
    }
}

async fn analysis_row(pool: &Pool<Db>, key: &AnalysisKey) -> Result<Option<AnalysisRow>, StoreError> {
    let row: Option<AnalysisTuple> = sqlx::query_as(&format!(
        "SELECT {ANALYSIS_COLUMNS} FROM game_analyses \
         WHERE game_id = $1 AND engine_version = $2 AND budget = $3 AND seed = $4"
    ))
    .bind(key.game_id)
    .bind(key.engine_version.as_str())
    .bind(key.budget)
    .bind(key.seed)
    .fetch_optional(pool)
    .await
    .map_err(|e| db_error("reading an analysis", e))?;
    Ok(row.map(analysis_of))
}

/// Queues the analysis `key` unless it is stored already (queued, running, done or failed);
/// returns the stored row.
async fn request_analysis(pool: &Pool<Db>, key: &AnalysisKey, now: i64) -> Result<AnalysisRow, StoreError> {
    sqlx::query(
        "INSERT INTO game_analyses (game_id, engine_version, budget, seed, state, requested_at, updated_at) \
         VALUES ($1, $2, $3, $4, 'queued', $5, $5) ON CONFLICT DO NOTHING",
    )
    .bind(key.game_id)
    .bind(key.engine_version.as_str())
    .bind(key.budget)
    .bind(key.seed)
    .bind(now)
    .execute(pool)
    .await
    .map_err(|e| db_error("queueing an analysis", e))?;
    analysis_row(pool, key).await?.ok_or_else(|| StoreError::other("the analysis just queued is gone"))
}

/// Analyses queued or running (what the queue holds).
async fn pending_analyses(pool: &Pool<Db>) -> Result<i64, StoreError> {
    sqlx::query_scalar("SELECT COUNT(*) FROM game_analyses WHERE state IN ('queued', 'running')")
        .fetch_one(pool)
        .await
        .map_err(|e| db_error("counting the queued analyses", e))
}

/// Takes the oldest queued analysis, or a running one whose heartbeat is older than
/// `stale_before` (its worker stopped), for this worker: `None` when there is none or another
/// worker took it first.
async fn claim_analysis(pool: &Pool<Db>, now: i64, stale_before: i64) -> Result<Option<AnalysisRow>, StoreError> {
    let fail = |e| db_error("taking a queued analysis", e);
    let next: Option<AnalysisTuple> = sqlx::query_as(&format!(
        "SELECT {ANALYSIS_COLUMNS} FROM game_analyses \
         WHERE state = 'queued' OR (state = 'running' AND updated_at < $1) ORDER BY requested_at LIMIT 1"
    ))
    .bind(stale_before)
    .fetch_optional(pool)
    .await
    .map_err(fail)?;
    let Some(row) = next.map(analysis_of) else { return Ok(None) };
    let k = &row.key;
    // Taken only if nobody took it since it was read (state and heartbeat unchanged).
    let taken = sqlx::query(
        "UPDATE game_analyses SET state = 'running', done_moves = 0, updated_at = $5 \
         WHERE game_id = $1 AND engine_version = $2 AND budget = $3 AND seed = $4 \
         AND state = $6 AND updated_at = $7",
    )
    .bind(k.game_id)
    .bind(k.engine_version.as_str())
    .bind(k.budget)
    .bind(k.seed)
    .bind(now)
    .bind(row.state.id())
    .bind(row.updated_at)
    .execute(pool)
    .await
    .map_err(fail)?;
    let running = AnalysisRow { state: AnalysisState::Running, done_moves: 0, updated_at: now, ..row };
    Ok((taken.rows_affected() == 1).then_some(running))
}

/// Records a running analysis's progress (and heartbeat).
async fn analysis_progress(
    pool: &Pool<Db>,
    key: &AnalysisKey,
    done: i64,
    total: i64,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE game_analyses SET done_moves = $5, total_moves = $6, updated_at = $7 \
         WHERE game_id = $1 AND engine_version = $2 AND budget = $3 AND seed = $4 AND state = 'running'",
    )
    .bind(key.game_id)
    .bind(key.engine_version.as_str())
    .bind(key.budget)
    .bind(key.seed)
    .bind(done)
    .bind(total)
    .bind(now)
    .execute(pool)
    .await
    .map_err(|e| db_error("recording an analysis's progress", e))?;
    Ok(())
}

/// Ends a running analysis: done with its result, or failed with why.
async fn finish_analysis(
    pool: &Pool<Db>,
    key: &AnalysisKey,
    outcome: Result<&str, &str>,
    now: i64,
) -> Result<(), StoreError> {
    let (state, result, message) = match outcome {
        Ok(result) => ("done", Some(result), None),
        Err(message) => ("failed", None, Some(message)),
    };
    sqlx::query(
        "UPDATE game_analyses SET state = $5, result = $6, message = $7, done_moves = total_moves, updated_at = $8 \
         WHERE game_id = $1 AND engine_version = $2 AND budget = $3 AND seed = $4 AND state = 'running'",
    )
    .bind(key.game_id)
    .bind(key.engine_version.as_str())
    .bind(key.budget)
    .bind(key.seed)
    .bind(state)
    .bind(result)
    .bind(message)
    .bind(now)
    .execute(pool)
    .await
    .map_err(|e| db_error("storing an analysis", e))?;
    Ok(())
}
