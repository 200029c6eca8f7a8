//! `chronicle serve` configuration: flags, each with an environment variable.

use std::num::NonZeroU32;

use std::time::Duration;

use crate::server::graphql::Limits;
use chronicle_service::admission::AdmissionLimits;

/// Default request body limit: 8 MiB. What a body costs before anything can be charged is
/// converting its JSON into GraphQL variables, about proportional to its number of values: a
/// 9 MB log of 200,000 small objects took 0.5–0.9 s of CPU (docs/reliability.md, "Load test"),
/// so the limit keeps every body well under a second; real logs are tens of kilobytes.
pub const DEFAULT_BODY_LIMIT: usize = 8 * 1024 * 1024;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per event.
    Json,
}

/// Arguments of `chronicle serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CHRONICLE_HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on; 0 picks a free one (printed at start-up).
    #[arg(long, env = "CHRONICLE_PORT", default_value_t = 8080)]
    pub port: u16,
    /// `postgres://…` or `sqlite://PATH`; default sqlite://./data/chronicle.db.
    #[arg(long, env = "DATABASE_URL", value_name = "URL")]
    pub database_url: Option<String>,
    /// Largest request body in bytes.
    #[arg(long, env = "CHRONICLE_BODY_LIMIT", default_value_t = DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
    /// Deepest query accepted (nesting of selections).
    #[arg(long, env = "CHRONICLE_MAX_DEPTH", default_value_t = 12)]
    pub max_depth: usize,
    /// Most complex query accepted (fields, lists counted by their page size).
    #[arg(long, env = "CHRONICLE_MAX_COMPLEXITY", default_value_t = 5000)]
    pub max_complexity: usize,
    /// Longest query text in bytes (logs travel in variables, bounded by --body-limit).
    #[arg(long, env = "CHRONICLE_MAX_QUERY_BYTES", default_value_t = 100_000)]
    pub max_query_bytes: usize,
    /// Most fields one operation may select with its fragments expanded (`__typename`,
    /// fragment spreads, arguments and directives count).
    #[arg(long, env = "CHRONICLE_MAX_SELECTIONS", default_value_t = 1000)]
    pub max_selections: u64,
    /// Most log bytes one request may work on (replay, or read from the store), over all its
    /// fields and aliases; a page counts as one request.
    #[arg(long, env = "CHRONICLE_REPLAY_BUDGET", default_value_t = 2 * DEFAULT_BODY_LIMIT)]
    pub replay_budget: usize,
    /// Requests per minute per bearer token.
    #[arg(long, env = "CHRONICLE_RATE_LIMIT", default_value_t = NonZeroU32::new(600).unwrap_or(NonZeroU32::MIN))]
    pub rate_limit: NonZeroU32,
    /// Requests per minute per client address for requests without a token.
    #[arg(long, env = "CHRONICLE_ANONYMOUS_RATE_LIMIT", default_value_t = NonZeroU32::new(1200).unwrap_or(NonZeroU32::MIN))]
    pub anonymous_rate_limit: NonZeroU32,
    /// Replays that may run at once; 0: one per core but one.
    #[arg(long, env = "CHRONICLE_REPLAY_SLOTS", default_value_t = 0)]
    pub replay_slots: usize,
    /// Memory (MiB) running replays may reserve together.
    #[arg(long, env = "CHRONICLE_REPLAY_MEMORY_MIB", default_value_t = 256)]
    pub replay_memory_mib: usize,
    /// Memory (MiB) large request bodies being executed may reserve together.
    #[arg(long, env = "CHRONICLE_BODY_MEMORY_MIB", default_value_t = 256)]
    pub body_memory_mib: usize,
    /// Memory (MiB) every stored game's rows may take when a query first needs them (filtered
    /// strategy effects, questions), estimated before they are read; over it those queries
    /// answer `BUDGET_EXCEEDED`.
    #[arg(long, env = "CHRONICLE_ROWS_MEMORY_MIB", default_value_t = 4096)]
    pub rows_memory_mib: usize,
    /// Playouts a decision in the game analyses this server runs for callers who name no
    /// budget (every anonymous one): what one analysis costs (docs/analysis.md).
    #[arg(long, env = "CHRONICLE_ANALYSIS_BUDGET", default_value_t = chronicle_game::analysis::DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub analysis_budget: u32,
    /// Requests that may wait for a replay slot or memory at once; more get `BUSY`.
    #[arg(long, env = "CHRONICLE_QUEUE", default_value_t = 64)]
    pub queue: usize,
    /// Longest wait (seconds) for a replay slot or memory before `BUSY`.
    #[arg(long, env = "CHRONICLE_QUEUE_WAIT", default_value_t = 10)]
    pub queue_wait: u64,
    /// Games kept in the read cache.
    #[arg(long, env = "CHRONICLE_CACHE_GAMES", default_value_t = 100_000)]
    pub cache_games: usize,
    /// HTTP worker threads; 0: one per core.
    #[arg(long, env = "CHRONICLE_WORKERS", default_value_t = 0)]
    pub workers: usize,
    /// Seconds in-flight requests get to finish after SIGINT/SIGTERM.
    #[arg(long, env = "CHRONICLE_SHUTDOWN_TIMEOUT", default_value_t = 30)]
    pub shutdown_timeout: u64,
    /// Seconds a download waits for its client to read before it gives its slot back and is
    /// cut.
    #[arg(long, env = "CHRONICLE_DOWNLOAD_IDLE", default_value_t = 20)]
    pub download_idle: u64,
    /// Log line format (standard error; filter with RUST_LOG, default `info`).
    #[arg(long, env = "CHRONICLE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl ServeArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            max_depth: self.max_depth,
            max_complexity: self.max_complexity,
            max_query_bytes: self.max_query_bytes,
            max_selections: self.max_selections,
            replay_budget: self.replay_budget,
        }
    }

    pub fn admission(&self) -> AdmissionLimits {
        let default = AdmissionLimits::for_this_machine();
        AdmissionLimits {
            replay_slots: if self.replay_slots == 0 { default.replay_slots } else { self.replay_slots },
            replay_memory: self.replay_memory_mib.saturating_mul(1 << 20),
            body_memory: self.body_memory_mib.saturating_mul(1 << 20),
            queue: self.queue,
            wait: Duration::from_secs(self.queue_wait),
            rows_memory: self.rows_memory_mib.saturating_mul(1 << 20),
            analysis_budget: self.analysis_budget,
        }
    }
}
