//! The `api` integration tests, gathered in one binary: each of them links the whole service
//! (polars, sqlx, actix-web, async-graphql), and one link instead of five saves most of their
//! build time. Each module is one suite: `server` (the GraphQL service end to end), `hardening`
//! (hostile and unlucky conditions), `store_contract` (both stores), `graphql_fuzz`, `schema`,
//! `other_games` (Village and Above and Below through the server and the web pages), `game_stats`
//! (their statistics against plain counts).

#[macro_use]
mod common;
mod analysis;
mod bounded_cost;
mod export;
mod game_stats;
mod graphql_fuzz;
mod hardening;
mod in_words;
mod migration;
mod other_games;
mod players;
mod questions;
mod recorder;
mod recorder_games;
mod replicas;
mod schema;
mod server;
mod simulate_pool;
mod store_contract;
mod stored_models;
mod stored_tallies;
mod toy_game;
mod web;
