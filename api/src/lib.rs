//! Chronicle's binary: the command-line surface ([`commands`]), the HTTP server with the
//! GraphQL API and the web app ([`server`]) over [`chronicle_service`]. `main.rs` only calls
//! [`cli::run_interactive`] ([`cli::run`] without progress bars, for tests). Commands return
//! typed outcomes ([`commands::Done`]); only [`cli`] maps them to exit codes. `commands` and
//! `server` do not use each other, but for `chronicle serve`, which the CLI starts through
//! [`server::startup`].

pub mod cli;
pub mod commands;
pub mod server;
