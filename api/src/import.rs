//! `chronicle import` and `chronicle reverify`: logs into a [`Store`], and stored games through
//! the current engine again.
//!
//! Import is a two-stage pipeline: blocking tasks replay one batch of logs on all cores
//! ([`crate::inputs::par_map`]) while the store writes the previous batch, one transaction per
//! batch; games whose dedupe key is stored already are not replayed again. Logs are read batch
//! by batch ([`crate::inputs::LogReader`]), so memory holds two batches, not the corpus. A game is stored
//! completely or not at all, so an import killed at any moment leaves only whole games, and
//! running it again stores the rest (the others are duplicates).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use serde_json::json;

use crate::canonical;
use crate::facts::{GameRecord, Outcome};
use crate::inputs::{par_map, LogInput};
use crate::store::{self, Backend, CompressedLog, Inserted, NewGame, Store, StoreError, StoredLog};

/// The replay of one log, ready to store.
pub fn prepare(bytes: &[u8], uploader: Option<&str>) -> NewGame {
    prepare_identified(bytes, canonical::identify(bytes), uploader)
}

/// [`prepare`] for a log whose dedupe key is already computed.
pub(crate) fn prepare_identified(bytes: &[u8], identity: canonical::Identity, uploader: Option<&str>) -> NewGame {
    let replay = chronicle_engine::replay(bytes);
    NewGame {
        sha256: identity.sha256,
        format: identity.format.as_deref().map(crate::facts::clean),
        uploader: uploader.map(crate::facts::clean),
        log: CompressedLog::gzip(bytes),
        record: GameRecord::from_replay(&replay),
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
    progress: &ProgressBar,
) -> Result<ImportReport, StoreError> {
    let mut queue = inputs.into_iter();
    import_from(store, |n| Ok(queue.by_ref().take(n).collect()), uploader, batch, progress).await
}

/// [`import`] of logs read on demand: `next(n)` gives up to `n` more logs (none at the end), so
/// that only the batch being prepared and the one being written are in memory. A read error
/// ends the import; the batches written before it stay stored.
///
/// The batch being prepared is looked up while the previous one is still being written: a game
/// in both is then replayed twice and the second copy is found a duplicate when it is stored
/// (the unique key decides), so the counts are the same as one batch at a time.
pub async fn import_from<S: Store>(
    store: &S,
    mut next: impl FnMut(usize) -> Result<Vec<LogInput>, String>,
    uploader: Option<String>,
    batch: usize,
    progress: &ProgressBar,
) -> Result<ImportReport, StoreError> {
    let batch = batch.max(1);
    let mut report = ImportReport::default();
    let mut writing: Option<Pending> = None;
    loop {
        let inputs = next(batch).map_err(StoreError::other)?;
        let done = inputs.is_empty();
        let written = async {
            match writing.take() {
                Some(pending) => write(store, pending, &mut report, progress).await,
                None => Ok(()),
            }
        };
        let prepared = async {
            if done {
                Ok(None)
            } else {
                prepare_batch(store, inputs, uploader.clone()).await.map(Some)
            }
        };
        let (written, prepared) = tokio::join!(written, prepared);
        written?;
        match prepared? {
            Some(pending) => writing = Some(pending),
            None => break,
        }
    }
    progress.finish_and_clear();
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
    progress: &ProgressBar,
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
                pending.games.get(g).is_some_and(|game| game.record.status == chronicle_engine::Status::Invalid),
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
    progress.inc(count as u64);
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
    Ok(GameRecord::from_replay(&chronicle_engine::replay(&bytes)))
}

/// Replays every stored game with the current engine, rewrites its verdict, players and facts,
/// and reports the games whose outcome (status, error code, scores, winners) changed.
pub async fn reverify<S: Store>(store: &S, batch: usize, progress: &ProgressBar) -> Result<ReverifyReport, StoreError> {
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
        progress.inc(logs.len() as u64);
    }
    progress.finish_and_clear();
    Ok(report)
}

/// The database URL: the flag, else `DATABASE_URL`, else [`store::DEFAULT_DATABASE_URL`].
pub fn database_url(flag: Option<String>) -> String {
    flag.or_else(|| std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| store::DEFAULT_DATABASE_URL.to_owned())
}

/// A progress bar on the process's standard error when `show` and that is a terminal; hidden
/// otherwise.
pub fn progress_bar(len: u64, what: &str, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{{bar:40}} {{pos}}/{{len}} {what} ({{elapsed}}, {{eta}} left)");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// A counter of logs stored (the total is not known while logs are read on demand) on the
/// process's standard error when `show` and that is a terminal; hidden otherwise.
fn log_counter(show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {pos} logs ({elapsed}, {per_sec})") {
        bar.set_style(style);
    }
    bar
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the async runtime: {e}"))
}

/// Arguments of `chronicle import`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// Log files, directories (every *.json and *.ndjson in them) and NDJSON files; `-` reads
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// `postgres://…` or `sqlite://PATH`; default: env DATABASE_URL, else
    /// sqlite://./data/chronicle.db.
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Print the totals as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Recorded as the uploader of the new games.
    #[arg(long, value_name = "NAME")]
    pub uploader: Option<String>,
    /// Games per transaction.
    #[arg(long, value_name = "N", default_value_t = store::DEFAULT_BATCH)]
    pub batch: usize,
}

/// Arguments of `chronicle reverify`.
#[derive(clap::Args, Debug)]
pub struct ReverifyArgs {
    /// `postgres://…` or `sqlite://PATH`; default: env DATABASE_URL, else
    /// sqlite://./data/chronicle.db.
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Games per transaction.
    #[arg(long, value_name = "N", default_value_t = store::DEFAULT_BATCH)]
    pub batch: usize,
}

/// `chronicle import`. Exit code 0 when every input is stored or a duplicate, 1 when some
/// could not be stored.
pub fn import_command(
    args: ImportArgs,
    stdin: &mut dyn std::io::Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> Result<i32, String> {
    let ImportArgs { paths, database_url: flag, json, uploader, batch } = args;
    let url = database_url(flag);
    let mut reader = crate::inputs::LogReader::new(&paths, stdin)?;
    let rt = runtime()?;
    let progress = log_counter(progress);
    let report = rt.block_on(async {
        let store = store::open(&url).await?;
        let r = import_from(&store, |n| reader.next_batch(n), uploader, batch, &progress).await;
        store.close().await;
        r
    });
    let report = report.map_err(|e| e.to_string())?;
    for (name, reason) in &report.failures {
        let _ = writeln!(err, "chronicle: {name}: not stored: {reason}");
    }
    let s = report.summary;
    let line = if json {
        serde_json::to_string(&s).map_err(|e| e.to_string())?
    } else {
        format!(
            "imported {}, duplicates {}, invalid {} (stored with their error), failed {}",
            s.imported, s.duplicates, s.invalid, s.failed
        )
    };
    writeln!(out, "{line}").map_err(|e| e.to_string())?;
    Ok(if s.failed > 0 { crate::cli::EXIT_INVALID } else { crate::cli::EXIT_OK })
}

fn outcome_text(o: &Outcome) -> String {
    let mut s = o.status.clone();
    if let Some(code) = &o.error_code {
        s.push_str(&format!(" ({code})"));
    }
    if o.scores.iter().any(Option::is_some) {
        let totals: Vec<String> = o.scores.iter().map(|s| s.map_or("-".to_owned(), |s| s.total.to_string())).collect();
        let winners: Vec<String> = o.winners.iter().map(i16::to_string).collect();
        s.push_str(&format!(", totals [{}], winners [{}]", totals.join(", "), winners.join(", ")));
    }
    s
}

/// `chronicle reverify`. Exit code 0 when every stored game was replayed and rewritten, 1 when
/// some could not be.
pub fn reverify_command(
    args: ReverifyArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> Result<i32, String> {
    let ReverifyArgs { database_url: flag, json, batch } = args;
    let url = database_url(flag);
    let rt = runtime()?;
    let report = rt.block_on(async {
        async fn run<S: Store>(s: &S, batch: usize, show: bool) -> Result<ReverifyReport, StoreError> {
            let progress = progress_bar(u64::try_from(s.game_count().await?).unwrap_or(0), "games", show);
            reverify(s, batch, &progress).await
        }
        match store::open(&url).await? {
            Backend::Postgres(s) => {
                let r = run(&s, batch, progress).await;
                s.close().await;
                r
            }
            Backend::Sqlite(s) => {
                let r = run(&s, batch, progress).await;
                s.close().await;
                r
            }
        }
    });
    let report = report.map_err(|e| e.to_string())?;
    for (id, reason) in &report.failures {
        let _ = writeln!(err, "chronicle: game {id}: not reverified: {reason}");
    }
    if json {
        writeln!(out, "{}", report.json()).map_err(|e| e.to_string())?;
    } else {
        for c in &report.changes {
            let short = c.sha256.get(..12).unwrap_or(&c.sha256);
            writeln!(out, "game {} ({short}): {} -> {}", c.game, outcome_text(&c.before), outcome_text(&c.after))
                .map_err(|e| e.to_string())?;
        }
        writeln!(
            out,
            "reverified {}, changed {}, failed {}",
            report.reverified,
            report.changes.len(),
            report.failures.len()
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(if report.failures.is_empty() { crate::cli::EXIT_OK } else { crate::cli::EXIT_INVALID })
}
