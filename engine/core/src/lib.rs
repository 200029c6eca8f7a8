//! The game-agnostic core shared by Chronicle's rules engines and everything built on them.
//!
//! - [`GameKind`]: the closed set of games, chosen from a log's `format`, each with its
//!   [`GameSpec`] (id, format, player range, score rows, variants).
//! - [`Verdict`]: what a replay says about a log, in terms every game shares (complete,
//!   incomplete or invalid with where and why; per player the named score rows, total, rank,
//!   winner and the claimed total).
//! - [`GameEngine`]: the trait each game's engine crate implements; [`Engine`]: the object-safe
//!   handle of one, which the registry of games hands to services.
//! - [`analysis`]: a log judged move by move by a game's search bot, with marks and summaries.
//! - [`envelope`]: the verdict for a log whose format names no game.
//! - `conformance` (feature `conformance`): the checks every game's engine must pass.
//!
//! Services work with these types: what a game offers is data ([`GameSpec`]'s
//! [`Capabilities`]), and its engine is reached through the one registry that maps a
//! [`GameKind`] to its [`Engine`], so adding a game is a variant, a spec and a registry line.
//! Like the engines, nothing here does IO, reads a clock or keeps global state.

pub mod analysis;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod cursor;
pub mod engine;
pub mod envelope;
pub mod error;
pub mod id_table;
pub mod kind;
pub mod members;
pub mod pool;
pub mod rng;
pub mod setup_form;
pub mod single_pass;
pub mod timeline;
pub mod verdict;
pub mod view;

pub use engine::{
    ChoiceCell, Engine, GameEngine, Handle, LedgerChange, LedgerLine, Legal, Simulation, StateAt, StepChoice,
    StepGroup, Steps, Unavailable,
};
pub use kind::{Capabilities, CounterSpec, GameKind, GameSpec, ScoreRowSpec};
pub use timeline::{Position, Timeline, TimelineStep, Visit, Walk};
pub use verdict::{
    bounded_message, is_synthetic, player_verdicts, rank, simulated_source, Counter, LogError, Meta, PlayerVerdict,
    Score, ScoreRow, Status, Verdict, MAX_MESSAGE_CHARS, SYNTHETIC_LABEL,
};
pub use view::BoardView;

/// serde, for the `Serialize` impl that [`error_codes!`] writes in each engine.
#[doc(hidden)]
pub use serde as __serde;
