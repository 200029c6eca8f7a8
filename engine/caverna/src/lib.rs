//! Chronicle's Caverna rules engine: a pure, deterministic replay of `caverna-log/1` logs.
//!
//! The flow is log → [`notation`] (syntax) → [`setup`] (validated [`setup::Setup`]) →
//! [`game::Game`] changed entry by entry by the [`rules`] → [`replay::Replay`] with the
//! [`scoring`] of a complete game. Nothing here does IO, reads a clock or keeps global state.
//!
//! ```
//! let log = br#"{"format": "caverna-log/1",
//!   "setup": {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": 1},
//!   "entries": [{"type": "place", "player": 0, "space": "supplies"}]}"#;
//! let r = chronicle_caverna::replay(log);
//! assert_eq!(r.status, chronicle_caverna::Status::Incomplete);
//! assert_eq!(r.game.unwrap().to_move(), Some(1));
//! ```

pub mod action_space;
pub mod analysis;
pub mod board;
pub mod bots;
pub mod consequences;
mod dwarfs;
pub mod error;
pub mod events;
pub mod furnishing;
pub mod game;
pub mod goods;
pub mod ledger;
pub mod legal;
mod messages;
pub mod notation;
mod per_player;
mod plain_entries;
mod plain_ids;
pub mod reference;
pub mod replay;
pub mod rules;
pub mod scoring;
pub mod sentence;
pub mod setup;
pub mod setup_form;
pub mod shuffle;
mod single_pass;
mod spaces;
pub mod steps;
mod tag_first;
pub mod verdict;
pub mod view;

pub use error::{ErrorCode, RuleError};
pub use game::{Game, Phase};
pub use replay::{parse_only, replay, replay_until, LogError, Replay, Status, ENGINE_VERSION};
pub use scoring::ScoreBreakdown;
pub use verdict::Caverna;
