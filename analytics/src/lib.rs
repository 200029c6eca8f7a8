//! Strategy statistics over verified Caverna games.
//!
//! This crate depends on the engine only and performs no IO: it turns replay summaries into
//! statistics. It holds no statistics yet; the engine's replay result is its future input.
