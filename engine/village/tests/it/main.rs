//! The engine's rule tests, gathered in one binary. Each module is one suite named after a
//! part of `docs/rules/village.md`: `setup` (B, G.1), `turns` (C, G.2, G.3), `actions` (D.1–D.3, D.5–D.8),
//! `market` (D.4, G.7), `deaths` (C.6, C.7, G.11), `mass` (E.1, G.12), `end_and_scoring`
//! (E.2–E.4), `solo` (F, G.13), `decisions`, `decisions_play`, `decisions_solo`,
//! `decisions_codes` (H, a test per decision), `codes` (every G error code reached), `seeded` (G.14, simulated games),
//! `fixtures` (golden and invalid logs, the worked example), `robustness` (mutated logs),
//! `travel_map` (A.8, D.6, M.6: the map's reading and the bounds on declared lists).

mod actions;
mod checks;
mod codes;
mod common;
mod deaths;
mod decisions;
mod decisions_codes;
mod decisions_play;
mod decisions_solo;
mod end_and_scoring;
mod families;
mod fixtures;
mod market;
mod mass;
mod robustness;
mod seeded;
mod setup;
mod solo;
mod travel_map;
mod turns;
