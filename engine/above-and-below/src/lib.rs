//! Chronicle's Above and Below rules engine: a pure, deterministic replay of
//! `above-and-below-log/1` logs (`docs/log-format-above-and-below.md`), following the rules
//! reference of `docs/rules/above-and-below.md`.
//!
//! The flow is log → [`notation`] (syntax, serde) → [`setup`] (validated [`setup::Setup`]:
//! catalogue, board profile, rows, random mode) → [`game::Game`] changed entry by entry by the
//! [`rules`] → [`replay::Replay`] with the scores of a complete game. Card data is never built
//! in: each log declares its catalogue and board numbers ([`catalogue`], [`board`]); tests and
//! the simulator use a labelled synthetic set ([`synthetic`]). Nothing here does IO, reads a
//! clock or keeps global state.

pub mod board;
pub mod bots;
pub mod catalogue;
pub mod deck;
pub mod error;
pub mod game;
pub mod ids;
pub mod ledger;
pub mod legal;
pub mod names;
pub mod notation;
mod plain;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod sentence;
pub mod setup;
pub mod setup_form;
mod single_pass;
mod steps;
pub mod synthetic;
mod tag_first;
pub mod trust;
pub mod verdict;
pub mod view;

pub use error::{ErrorCode, RuleError};
pub use game::{Game, Phase};
pub use replay::{parse_only, replay, replay_until, LogError, Replay, Status, ENGINE_VERSION, FORMAT};
pub use verdict::AboveAndBelow;
