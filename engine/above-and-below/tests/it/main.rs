//! The engine's rule tests, gathered in one binary. Each module is one suite:
//! `setup` (docs/rules/above-and-below.md A.8, B, C), `actions` (D.4–D.7), `market` (D.8–D.9), `explore` (E, D.10),
//! `round_end` (F.1–F.8), `scoring` (F.10–F.12), `effects` (B.3), `deck` (G.1.1),
//! `decisions` (H), `codes` (every G.1 error code reachable), `trust` (the G.5 trust report),
//! `fixtures` (golden logs and invalid twins), `example` (the LOG-FORMAT worked example),
//! `simulate` (bots, legal entries, mutated logs), `view` (the board view pages draw); `common`
//! holds the shared log builders.

mod actions;
mod codes;
mod common;
mod decisions;
mod deck;
mod effects;
mod example;
mod explore;
mod fixtures;
mod market;
mod round_end;
mod scoring;
mod setup;
mod simulate;
mod trust;
mod trust_counts;
mod view;
