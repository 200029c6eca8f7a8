//! The rules, one module per family. Each module holds free functions over the game state;
//! none does IO or keeps state of its own.

pub mod abilities;
pub mod breeding;
pub mod conversion;
pub mod expedition;
pub mod family;
pub mod free;
pub mod furnish;
pub mod harvest;
pub mod housing;
pub mod placement;
pub mod round;
pub mod sowing;
pub mod tiles;
pub mod weapons;
