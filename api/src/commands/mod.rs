//! The commands of `chronicle` but `serve`: each returns a typed outcome ([`Done`]) or a
//! message for people, which [`crate::cli`] maps to an exit code and prints.

pub mod export;
pub mod import;
pub mod players;
pub mod replay;
pub mod report;
pub mod simulate;
pub mod tokens;

/// How a command that ran ended. Commands return it; only [`crate::cli`] turns it into an
/// exit code (an `Err` is a usage or IO error, exit code 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// Everything asked for was done: every log valid, stored or a duplicate (exit code 0).
    Success,
    /// The command ran, but some input was invalid or could not be stored (exit code 1).
    Rejected,
}

/// The store a command works on.
#[derive(clap::Args, Debug, Clone)]
pub struct DatabaseArg {
    /// `postgres://…` or `sqlite://PATH`; default: env DATABASE_URL, else
    /// sqlite://./data/chronicle.db.
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
}
