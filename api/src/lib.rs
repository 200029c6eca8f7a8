//! Chronicle's binary: the command-line surface, the HTTP server and the GraphQL API over
//! [`chronicle_service`]. `main.rs` only calls [`cli::run_interactive`] ([`cli::run`] without
//! progress bars, for tests). Commands return typed outcomes ([`cli::Done`]); only [`cli`] maps
//! them to exit codes.

pub mod cli;
pub mod config;
pub mod export;
pub mod game_report;
pub mod graphql;
pub mod http;
pub mod import;
pub mod metrics;
pub mod offload;
pub mod players;
pub mod replay_command;
pub mod report;
pub mod simulate;
pub mod startup;
pub mod tokens;
pub mod web;
