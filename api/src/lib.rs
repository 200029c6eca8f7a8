//! Chronicle's command-line surface and (later) service. `main.rs` only calls [`cli::run`].

pub mod cli;
pub mod inputs;
pub mod report;
