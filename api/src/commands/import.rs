//! `chronicle import` and `chronicle reverify`: the commands around the service's ingestion
//! ([`chronicle_ingest::pipeline`]): arguments, progress bars, the report and the outcome.
//!
//! Import is a two-stage pipeline: blocking tasks replay one batch of logs on all cores
//! while the store writes the batches prepared before it, one at a time, one transaction per
//! batch; games whose dedupe key is stored already are not replayed again. Logs are read batch
//! by batch, so memory holds three batches (one being written, one waiting, one being
//! prepared), not the corpus. A game is stored completely or not at all, so an import killed at
//! any moment leaves only whole games, and running it again stores the rest (the others are
//! duplicates).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use chronicle_ingest::pipeline::{import_from, reverify, Progress, ReverifyReport};
use chronicle_store::record::Outcome;
use chronicle_store::{self as store, Backend, Store, StoreError};

use crate::commands::{CommandError, Done};

/// A progress bar reports ingestion's progress.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }

    fn abandon(&self) {
        self.0.abandon();
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
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

fn runtime() -> Result<tokio::runtime::Runtime, CommandError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CommandError::Io(format!("starting the async runtime: {e}")))
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

/// Counts the stored games into the store's statistics tallies (`chronicle_service::tallies`)
/// after verdicts were rewritten, so that a server answers from them at once; `Some(warning)`
/// when that failed (the verdicts are stored: a server counts them when it starts or learns of
/// the rewrite).
async fn count_statistics(store: &Backend, wrote: bool) -> Option<String> {
    if !wrote {
        return None;
    }
    match chronicle_service::tallies::catch_up(store).await {
        Ok(_) => None,
        Err(e) => Some(format!(
            "chronicle: the statistics tallies were not counted ({}); a server counts them when it starts",
            e.message()
        )),
    }
}

/// `chronicle import`. Exit code 0 when every input is stored or a duplicate, 1 when some
/// could not be stored.
pub fn import_command(
    args: ImportArgs,
    stdin: &mut dyn std::io::Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> crate::commands::Outcome {
    let ImportArgs { paths, database_url: flag, json, uploader, batch } = args;
    let url = database_url(flag);
    let mut reader = chronicle_ingest::inputs::LogReader::new(&paths, stdin).map_err(CommandError::Io)?;
    let rt = runtime()?;
    let progress = Bar(log_counter(progress));
    let report = rt.block_on(async {
        let store = store::open(&url).await?;
        // The statistics tallies are counted by the servers (at start and when they learn of
        // these games), not here: counting costs about twice the replay, and an import is
        // bound by its speed (docs/scaling.md, "Tallies in the store").
        let r = import_from(&store, |n| reader.next_batch(n), uploader, batch, &progress).await;
        store.close().await;
        r
    });
    let report = report.map_err(|e| CommandError::Store(e.to_string()))?;
    for (name, reason) in &report.failures {
        let _ = writeln!(err, "chronicle: {name}: not stored: {reason}");
    }
    let s = report.summary;
    let line = if json {
        serde_json::to_string(&s).map_err(|e| CommandError::Io(e.to_string()))?
    } else {
        format!(
            "imported {}, duplicates {}, invalid {} (stored with their error), failed {}",
            s.imported, s.duplicates, s.invalid, s.failed
        )
    };
    writeln!(out, "{line}")?;
    Ok(if s.failed > 0 { Done::Rejected } else { Done::Success })
}

fn outcome_text(o: &Outcome) -> String {
    let mut s = o.status.clone();
    if let Some(code) = &o.error_code {
        s.push_str(&format!(" ({code})"));
    }
    if o.scores.iter().any(Option::is_some) {
        let totals: Vec<String> =
            o.scores.iter().map(|s| s.as_ref().map_or("-".to_owned(), |s| s.total.to_string())).collect();
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
) -> crate::commands::Outcome {
    let ReverifyArgs { database_url: flag, json, batch } = args;
    let url = database_url(flag);
    let rt = runtime()?;
    let report = rt.block_on(async {
        async fn run<S: Store>(s: &S, batch: usize, show: bool) -> Result<ReverifyReport, StoreError> {
            let progress = Bar(progress_bar(u64::try_from(s.game_count().await?).unwrap_or(0), "games", show));
            reverify(s, batch, &progress).await
        }
        let store = store::open(&url).await?;
        let r = match &store {
            Backend::Postgres(s) => run(s, batch, progress).await,
            Backend::Sqlite(s) => run(s, batch, progress).await,
        };
        let counted = count_statistics(&store, r.is_ok()).await;
        store.close().await;
        r.map(|r| (r, counted))
    });
    let (report, counted) = report.map_err(|e| CommandError::Store(e.to_string()))?;
    if let Some(why) = counted {
        let _ = writeln!(err, "{why}");
    }
    for (id, reason) in &report.failures {
        let _ = writeln!(err, "chronicle: game {id}: not reverified: {reason}");
    }
    if json {
        writeln!(out, "{}", report.json())?;
    } else {
        for c in &report.changes {
            let short = c.sha256.get(..12).unwrap_or(&c.sha256);
            writeln!(out, "game {} ({short}): {} -> {}", c.game, outcome_text(&c.before), outcome_text(&c.after))?;
        }
        writeln!(
            out,
            "reverified {}, changed {}, failed {}",
            report.reverified,
            report.changes.len(),
            report.failures.len()
        )?;
    }
    Ok(if report.failures.is_empty() { Done::Success } else { Done::Rejected })
}
