//! Ingestion: logs into a [`Store`] (`chronicle import`), and stored games through the current
//! engines again (`chronicle reverify`). The commands around these live in the binary.
//!
//! Import is a two-stage pipeline: blocking tasks replay one batch of logs on all cores
//! while the store writes the batches prepared before it, one at a time, one transaction per
//! batch; games whose dedupe key is stored already are not replayed again. Logs are read batch
//! by batch, so memory holds three batches (one being written, one waiting, one being
//! prepared), not the corpus. A game is stored completely or not at all, so an import killed at
//! any moment leaves only whole games, and running it again stores the rest (the others are
//! duplicates).

use std::sync::Arc;

use serde::Serialize;
use serde_json::json;

use chronicle_game::Status;
use chronicle_store::record::{clean, GameRecord, Outcome};
use chronicle_store::{CompressedLog, Inserted, NewGame, Store, StoreError, StoredLog};

use crate::canonical;
use crate::games::record_of;
use crate::inputs::{par_map, LogInput};

/// Where ingestion reports its progress (a progress bar in the command-line tool).
pub trait Progress: Sync {
    /// `n` more inputs are done.
    fn advance(&self, n: u64);
    /// The work ended early, with an error.
    fn abandon(&self) {}
    /// The work is over.
    fn finish(&self) {}
}

/// No progress report.
pub struct Silent;

impl Progress for Silent {
    fn advance(&self, _: u64) {}
}

/// The replay of one log, ready to store.
pub fn prepare(bytes: &[u8], uploader: Option<&str>) -> NewGame {
    prepare_identified(bytes, canonical::identify(bytes), uploader)
}

/// [`prepare`] for a log whose dedupe key is already computed.
pub fn prepare_identified(bytes: &[u8], identity: canonical::Identity, uploader: Option<&str>) -> NewGame {
    let record = record_of(bytes, identity.format.as_deref());
    NewGame {
        sha256: identity.sha256,
        format: identity.format.as_deref().map(clean),
        uploader: uploader.map(clean),
        log: CompressedLog::gzip(bytes),
        record,
    }
}

/// The totals of an import. Every input is exactly one of: imported (a new valid game),
/// invalid (a new invalid game, stored with its error), duplicate (already stored), failed
/// (could not be stored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ImportSummary {
    pub imported: usize,
    pub duplicates: usize,
    pub invalid: usize,
    pub failed: usize,
}

#[derive(Clone, Debug, Default)]
pub struct ImportReport {
    pub summary: ImportSummary,
    /// Inputs that could not be stored: (input name, reason).
    pub failures: Vec<(String, String)>,
    /// Per input, in order: the id it is stored under (new or duplicate), `None` when failed.
    pub ids: Vec<Option<i64>>,
}

/// One batch on its way to the store: per input, a game found stored already (by its key) or
/// the index of its replay in `games`.
struct Pending {
    names: Vec<String>,
    slots: Vec<Slot>,
    games: Vec<NewGame>,
}

enum Slot {
    Known(i64),
    Game(usize),
}

/// Imports logs in batches of `batch`. Per batch: the dedupe keys (all cores), one look-up of
/// the keys already stored (those games are not replayed again), then the replays of the others
/// (all cores); all of it while the previous batch is written.
pub async fn import<S: Store>(
    store: &S,
    inputs: Vec<LogInput>,
    uploader: Option<String>,
    batch: usize,
    progress: &dyn Progress,
) -> Result<ImportReport, StoreError> {
    let mut queue = inputs.into_iter();
    import_from(store, |n| Ok(queue.by_ref().take(n).collect()), uploader, batch, progress).await
}

/// [`import`] of logs read on demand: `next(n)` gives up to `n` more logs (none at the end), so
/// that only a few batches are in memory (the one being written, one prepared and waiting,
/// the one being prepared), not the corpus. A read error ends the import; the batches written
/// before it stay stored.
///
/// Preparing and writing are two loops joined by a queue of one batch: the preparation goes
/// on to the next batch as soon as one is queued, instead of waiting for the write of the
/// previous one, so that neither the cores (keys, replays, gzip) nor the store's server sit
/// idle while the other finishes (measured: docs/performance.md). Batches are written one at a
/// time and in order, so games get their ids in input order as before.
///
/// A batch is looked up while earlier ones are still being written: a game in both is then
/// replayed twice and the second copy is found a duplicate when it is stored (the unique key
/// decides), so the counts are the same as one batch at a time.
pub async fn import_from<S: Store>(
    store: &S,
    mut next: impl FnMut(usize) -> Result<Vec<LogInput>, String>,
    uploader: Option<String>,
    batch: usize,
    progress: &dyn Progress,
) -> Result<ImportReport, StoreError> {
    let batch = batch.max(1);
    let (queue, mut queued) = tokio::sync::mpsc::channel::<Pending>(1);
    let prepare = async move {
        let mut inputs = next(batch).map_err(StoreError::other)?;
        while !inputs.is_empty() {
            let pending = prepare_batch(store, inputs, uploader.clone()).await?;
            // The next batch is read before this one is handed over: a read error then leaves
            // this batch unwritten, as when batches were prepared and written in lockstep.
            inputs = next(batch).map_err(StoreError::other)?;
            if queue.send(pending).await.is_err() {
                break; // the writer failed; its error is the import's
            }
        }
        Ok::<(), StoreError>(())
    };
    let mut report = ImportReport::default();
    let write_all = async {
        while let Some(pending) = queued.recv().await {
            if let Err(e) = write(store, pending, &mut report, progress).await {
                // Closing the queue stops the preparation at its next batch.
                queued.close();
                return Err(e);
            }
        }
        Ok(())
    };
    let (prepared, written) = tokio::join!(prepare, write_all);
    written?;
    prepared?;
    progress.finish();
    Ok(report)
}

/// The dedupe keys of a batch of logs, a look-up of those stored already, and the replays of
/// the others.
async fn prepare_batch<S: Store>(
    store: &S,
    inputs: Vec<LogInput>,
    uploader: Option<String>,
) -> Result<Pending, StoreError> {
    let inputs = Arc::new(inputs);
    let all = Arc::clone(&inputs);
    let keys = blocking(move || par_map(&all[..], |i| canonical::identify(&i.bytes))).await?;
    let shas: Vec<String> = keys.iter().map(|k| k.sha256.clone()).collect();
    let known = store.known_games(&shas).await?;
    let mut slots = Vec::with_capacity(keys.len());
    let mut todo = Vec::new();
    for (i, key) in keys.into_iter().enumerate() {
        match known.get(&key.sha256) {
            Some(&id) => slots.push(Slot::Known(id)),
            None => {
                slots.push(Slot::Game(todo.len()));
                todo.push((i, key));
            }
        }
    }
    let all = Arc::clone(&inputs);
    let games = blocking(move || {
        par_map(&todo, |(i, key)| {
            let bytes = all.get(*i).map_or(&[][..], |input| &input.bytes[..]);
            prepare_identified(bytes, key.clone(), uploader.as_deref())
        })
    })
    .await?;
    let names = inputs.iter().map(|i| i.name.clone()).collect();
    Ok(Pending { names, slots, games })
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| StoreError::other(format!("reading and replaying logs: {e}")))
}

/// Stores one batch and counts its results.
async fn write<S: Store>(
    store: &S,
    pending: Pending,
    report: &mut ImportReport,
    progress: &dyn Progress,
) -> Result<(), StoreError> {
    let results = if pending.games.is_empty() {
        Vec::new()
    } else {
        match store.insert_games(&pending.games).await {
            Ok(r) => r,
            Err(e) => {
                progress.abandon();
                let done = report.ids.len();
                return Err(StoreError::other(format!(
                    "{e} (the first {done} inputs were handled; importing again stores the rest)"
                )));
            }
        }
    };
    let count = pending.names.len();
    for (name, slot) in pending.names.into_iter().zip(pending.slots) {
        let (result, invalid) = match slot {
            Slot::Known(id) => (Inserted::Duplicate(id), false),
            Slot::Game(g) => (
                results.get(g).cloned().unwrap_or_else(|| Inserted::Failed("the store gave no result".into())),
                pending.games.get(g).is_some_and(|game| game.record.status == Status::Invalid),
            ),
        };
        match result {
            Inserted::New(id) => {
                if invalid {
                    report.summary.invalid += 1;
                } else {
                    report.summary.imported += 1;
                }
                report.ids.push(Some(id));
            }
            Inserted::Duplicate(id) => {
                report.summary.duplicates += 1;
                report.ids.push(Some(id));
            }
            Inserted::Failed(reason) => {
                report.summary.failed += 1;
                report.failures.push((name, reason));
                report.ids.push(None);
            }
        }
    }
    progress.advance(count as u64);
    Ok(())
}

/// A stored game whose outcome changed under the current engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub game: i64,
    pub sha256: String,
    pub before: Outcome,
    pub after: Outcome,
}

#[derive(Clone, Debug, Default)]
pub struct ReverifyReport {
    /// Games replayed and rewritten.
    pub reverified: usize,
    pub changes: Vec<Change>,
    /// Games that could not be replayed or rewritten: (id, reason).
    pub failures: Vec<(i64, String)>,
}

impl ReverifyReport {
    pub fn json(&self) -> serde_json::Value {
        json!({
            "reverified": self.reverified,
            "changed": self.changes.len(),
            "failed": self.failures.len(),
            "changes": self.changes,
        })
    }
}

fn rereplay(stored: &StoredLog) -> Result<GameRecord, String> {
    let bytes = stored.log.decompress()?;
    Ok(record_of(&bytes, stored.format.as_deref()))
}

/// Replays every stored game with the current engines, rewrites its verdict, players and facts,
/// and reports the games whose outcome (status, error code, scores, winners) changed.
pub async fn reverify<S: Store>(
    store: &S,
    batch: usize,
    progress: &dyn Progress,
) -> Result<ReverifyReport, StoreError> {
    let batch = batch.max(1);
    let mut report = ReverifyReport::default();
    let mut after = 0;
    loop {
        let logs = store.logs_after(after, i64::try_from(batch).unwrap_or(i64::MAX)).await?;
        let Some(last) = logs.last() else { break };
        after = last.id;
        let (logs, records) = tokio::task::spawn_blocking(move || {
            let records = par_map(&logs, rereplay);
            (logs, records)
        })
        .await
        .map_err(|e| StoreError::other(format!("replaying stored logs: {e}")))?;
        let mut ok = Vec::new();
        for (stored, record) in logs.iter().zip(records) {
            match record {
                Ok(r) => ok.push((stored.id, r)),
                Err(reason) => report.failures.push((stored.id, reason)),
            }
        }
        let ids: Vec<i64> = ok.iter().map(|(id, _)| *id).collect();
        let before = store.outcomes(&ids).await?;
        store.replace_records(&ok).await?;
        let shas: std::collections::HashMap<i64, &str> = logs.iter().map(|l| (l.id, l.sha256.as_str())).collect();
        for (id, record) in &ok {
            let after = record.outcome();
            let before = before.get(id).cloned().unwrap_or_else(|| Outcome {
                status: String::new(),
                error_code: None,
                scores: vec![],
                winners: vec![],
            });
            if before != after {
                let sha256 = shas.get(id).copied().unwrap_or_default().to_owned();
                report.changes.push(Change { game: *id, sha256, before, after });
            }
        }
        report.reverified += ok.len();
        progress.advance(logs.len() as u64);
    }
    progress.finish();
    Ok(report)
}
