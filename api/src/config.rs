//! `chronicle serve` configuration: flags, each with an environment variable.

use std::num::NonZeroU32;

use crate::graphql::Limits;

/// Default request body limit: 10 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 10 * 1024 * 1024;

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
    /// Requests per minute per bearer token (anonymous reads are not limited).
    #[arg(long, env = "CHRONICLE_RATE_LIMIT", default_value_t = NonZeroU32::new(600).unwrap_or(NonZeroU32::MIN))]
    pub rate_limit: NonZeroU32,
    /// Games kept in the read cache.
    #[arg(long, env = "CHRONICLE_CACHE_GAMES", default_value_t = 100_000)]
    pub cache_games: usize,
    /// HTTP worker threads; 0: one per core.
    #[arg(long, env = "CHRONICLE_WORKERS", default_value_t = 0)]
    pub workers: usize,
    /// Seconds in-flight requests get to finish after SIGINT/SIGTERM.
    #[arg(long, env = "CHRONICLE_SHUTDOWN_TIMEOUT", default_value_t = 30)]
    pub shutdown_timeout: u64,
    /// Log line format (standard error; filter with RUST_LOG, default `info`).
    #[arg(long, env = "CHRONICLE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl ServeArgs {
    pub fn limits(&self) -> Limits {
        Limits { max_depth: self.max_depth, max_complexity: self.max_complexity }
    }
}
