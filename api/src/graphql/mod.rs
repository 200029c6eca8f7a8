//! The GraphQL schema (async-graphql): queries and mutations over the [`Service`]. The schema
//! is committed as `api/schema.graphql` (`chronicle schema` prints it; a test keeps the two
//! equal).

pub mod errors;
mod mutation;
mod query;
pub mod stats;
pub mod types;

use std::sync::Arc;

use async_graphql::{Context, EmptySubscription, MergedObject, Schema};

use crate::service::Service;
use crate::store::Bearer;

pub use mutation::Mutation;

/// Every query: games and tournaments, and the strategy statistics.
#[derive(MergedObject, Default)]
pub struct Query(query::GameQuery, stats::StatsQuery);

pub type ChronicleSchema = Schema<Query, Mutation, EmptySubscription>;

/// Limits on what one request may ask.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_depth: usize,
    pub max_complexity: usize,
}

/// The bearer of the request's token, if it presented a valid one (per request data).
#[derive(Clone, Debug, Default)]
pub struct Caller(pub Option<Bearer>);

/// The schema without a service (for printing the SDL).
pub fn sdl() -> String {
    Schema::build(Query::default(), Mutation, EmptySubscription).finish().sdl()
}

pub fn schema(service: Arc<Service>, limits: Limits) -> ChronicleSchema {
    Schema::build(Query::default(), Mutation, EmptySubscription)
        .data(service)
        .limit_depth(limits.max_depth)
        .limit_complexity(limits.max_complexity)
        .finish()
}

fn service<'a>(ctx: &Context<'a>) -> async_graphql::Result<&'a Service> {
    ctx.data::<Arc<Service>>().map(Arc::as_ref)
}

/// The bytes of a log given as a `JSON` value: a JSON string is taken as the log's text (for
/// clients that send the file as it is), anything else is the log itself.
fn log_bytes(log: async_graphql::Json<serde_json::Value>) -> Vec<u8> {
    match log.0 {
        serde_json::Value::String(text) => text.into_bytes(),
        other => serde_json::to_vec(&other).unwrap_or_default(),
    }
}

/// The caller's bearer, or an UNAUTHENTICATED error: every mutation needs a token.
fn bearer<'a>(ctx: &Context<'a>) -> async_graphql::Result<&'a Bearer> {
    ctx.data_opt::<Caller>().and_then(|c| c.0.as_ref()).ok_or_else(|| {
        errors::coded(errors::UNAUTHENTICATED, "mutations need an `Authorization: Bearer <token>` header")
    })
}

/// A game or tournament id.
fn parse_id(id: &async_graphql::ID, what: &str) -> async_graphql::Result<i64> {
    id.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| errors::bad_input(format!("`{}` is not a {what} id", id.as_str())))
}
