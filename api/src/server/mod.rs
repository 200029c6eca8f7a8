//! `chronicle serve`: the HTTP server ([`http`], started by [`startup`] with its [`config`]),
//! the GraphQL API ([`graphql`]), the web app ([`web`]), metrics and the offloading of heavy
//! work ([`offload`]). Only this module knows HTTP.

pub mod config;
pub mod graphql;
pub mod http;
pub mod metrics;
pub mod offload;
pub mod startup;
pub mod web;
