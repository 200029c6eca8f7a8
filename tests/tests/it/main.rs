//! The integration tests through the CLI, gathered in one binary: each of them links the whole
//! `chronicle` library (polars, sqlx, actix-web), and one link instead of five saves most of
//! their build time. Each module is one suite: `cli`, `golden` (golden logs), `log_schema` (the
//! JSON Schema), `analyse_cli` (analysis and the strong bot), `properties` (property tests over simulated games), `simulate_cli`, `other_games_cli`
//! (Village and Above and Below logs).

mod analyse_cli;
mod cli;
mod golden;
mod log_schema;
mod other_games_cli;
mod properties;
mod simulate_cli;
