//! Chronicle's command-line surface and GraphQL service. `main.rs` only calls
//! [`cli::run_interactive`] ([`cli::run`] without progress bars, for tests).

pub mod auth;
pub mod canonical;
pub mod cli;
pub mod config;
pub mod facts;
pub mod graphql;
pub mod http;
pub mod import;
pub mod inputs;
pub mod offload;
pub mod report;
pub mod service;
pub mod simulate;
pub mod startup;
pub mod stats_corpus;
pub mod store;
pub mod tokens;
