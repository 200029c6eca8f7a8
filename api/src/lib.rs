//! Chronicle's command-line surface and (later) service. `main.rs` only calls
//! [`cli::run_interactive`] ([`cli::run`] without progress bars, for tests).

pub mod canonical;
pub mod cli;
pub mod facts;
pub mod import;
pub mod inputs;
pub mod report;
pub mod simulate;
pub mod store;
