//! The game-agnostic core shared by Chronicle's rules engines and everything built on them.
//!
//! - [`GameKind`]: the closed set of games, chosen from a log's `format`, each with its
//!   [`GameSpec`] (id, format, player range, score rows, variants).
//! - [`Verdict`]: what a replay says about a log, in terms every game shares (complete,
//!   incomplete or invalid with where and why; per player the named score rows, total, rank,
//!   winner and the claimed total).
//! - [`GameEngine`]: the trait each game's engine crate implements.
//! - [`envelope`]: the verdict for a log whose format names no game.
//! - `conformance` (feature `conformance`): the checks every game's engine must pass.
//!
//! Services work with these types and dispatch on [`GameKind`] with exhaustive matches, so
//! adding a game is a new variant that the compiler walks through every place that must know it.
//! Like the engines, nothing here does IO, reads a clock or keeps global state.

#[cfg(feature = "conformance")]
pub mod conformance;
pub mod cursor;
pub mod engine;
pub mod envelope;
pub mod id_table;
pub mod kind;
pub mod members;
pub mod single_pass;
pub mod verdict;

pub use engine::{GameEngine, LedgerChange, LedgerLine, Legal, StateAt, StepChoice, StepGroup, Steps};
pub use kind::{CounterSpec, GameKind, GameSpec, ScoreRowSpec};
pub use verdict::{
    bounded_message, player_verdicts, rank, simulated_source, Counter, LogError, Meta, PlayerVerdict, Score, ScoreRow,
    Status, Verdict, MAX_MESSAGE_CHARS,
};
