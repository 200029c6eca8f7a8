//! Chronicle's Village (Big Box) rules engine: a pure, deterministic replay of
//! `village-log/1` logs (`docs/log-format-village.md`, rules in `docs/rules/village.md`).
//!
//! The flow is log → [`notation`] (syntax) → [`setup`] (validated, with the
//! [`components`] the rulebook text lacks) → [`game::Game`] changed entry by entry by the
//! [`rules`] → [`replay::Replay`] with the final scoring. Nothing here does IO, reads a clock
//! or keeps global state.
//!
//! ```
//! let log = br#"{"format": "village-log/1",
//!   "setup": {"players": [{"name": "Ada", "color": "blue"}, {"name": "Bo", "color": "red"}],
//!             "components": "chronicle-synthetic/1", "seed": 1},
//!   "entries": []}"#;
//! let r = chronicle_village::replay(log);
//! assert_eq!(r.status, chronicle_village::Status::Incomplete);
//! ```

pub mod bots;
pub mod components;
pub mod declared;
pub mod error;
pub mod game;
pub mod ids;
pub mod ledger;
pub mod legal;
mod names;
pub mod notation;
mod plain_entries;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod sentence;
pub mod setup;
pub mod setup_form;
mod single_pass;
pub mod steps;
pub mod verdict;
pub mod view;

pub use error::{ErrorCode, RuleError};
pub use game::Game;
pub use replay::{parse_only, replay, replay_until, LogError, Replay, Status, ENGINE_VERSION};
pub use verdict::Village;
