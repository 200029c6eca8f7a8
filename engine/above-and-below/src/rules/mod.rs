//! The rules, one module per rule family of `docs/rules/above-and-below.md`.
//!
//! - [`turn`]: entry dispatch, turn order, passing and forced passes (D.2, LOG-FORMAT "Entries").
//! - [`villagers`]: using villagers, Cave Cat obedience, arrival traits (D.2.5, D.10, A.4).
//! - [`payment`]: payments to the supply (D.5.3, H.5).
//! - [`labor`], [`harvest`], [`build`], [`recruit`] (Train), [`explore`]: the five actions (D.3–D.7, E).
//! - [`market`]: the free actions offer, buy and refresh (D.8).
//! - [`storage`]: the storage track (D.9).
//! - [`reputation`]: the reputation track (A.6, H.16).
//! - [`rest`], [`income`]: the end of round (F.1–F.8).
//! - [`end_of_game`]: declarations after round 7 (F.9, B.4).
//! - [`scoring`]: the score rows and the winner (F.10–F.12).

pub mod build;
pub mod end_of_game;
pub mod explore;
pub mod harvest;
pub mod income;
pub mod labor;
pub mod market;
pub mod payment;
pub mod recruit;
pub mod reputation;
pub mod rest;
pub mod scoring;
pub mod storage;
pub mod turn;
pub mod villagers;
