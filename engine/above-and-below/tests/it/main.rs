//! The engine's rule tests, gathered in one binary. Each module is one suite:
//! `setup` (RULES.md A.8, B, C), `actions` (D.4–D.7), `market` (D.8–D.9), `explore` (E, D.10),
//! `round_end` (F.1–F.8), `scoring` (F.10–F.12), `decisions` (H), `codes` (every G.1 error
//! code reachable), `fixtures` (golden logs and invalid twins), `example` (the LOG-FORMAT worked
//! example), `simulate` (bots, legal entries, mutated logs), `trust` (the G.5 trust report);
//! `common` holds the shared log builders.

mod actions;
mod codes;
mod common;
mod decisions;
mod example;
mod explore;
mod fixtures;
mod market;
mod round_end;
mod scoring;
mod setup;
mod simulate;
mod trust;
