//! The GraphQL schema (async-graphql): queries and mutations over the [`Service`]. The schema
//! is committed as `api/schema.graphql` (`chronicle schema` prints it; a test keeps the two
//! equal).

pub mod analysis;
pub mod errors;
pub mod guard;
mod mutation;
pub mod outcomes;
mod query;
pub mod questions;
pub mod stats;
pub mod types;

use std::sync::Arc;

use async_graphql::{Context, EmptySubscription, MergedObject, Schema};

use chronicle_service::cost::Budget;
use chronicle_service::Service;
use chronicle_store::Bearer;

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
    /// Longest query text (bytes); variables are bounded by the body limit.
    pub max_query_bytes: usize,
    /// Most fields one operation selects, fragments expanded.
    pub max_selections: u64,
    /// Most log bytes one request may replay, over all its fields and aliases.
    pub replay_budget: usize,
}

impl Limits {
    pub fn document(&self) -> guard::DocumentLimits {
        guard::DocumentLimits {
            max_query_bytes: self.max_query_bytes,
            max_selections: self.max_selections,
            max_depth: self.max_depth,
        }
    }
}

/// The complexity of a field that works on a log (`verifyLog`, `submitGame`, `submitGames`,
/// `replay`, `legalEntries`, `entrySteps`, a game's `log`, `ledger`, `trust` and
/// `alternatives`): with the default complexity limit of 5,000, one request holds at most 50 of
/// them, aliases included.
pub const REPLAY_COMPLEXITY: usize = 100;

/// The request's budget of log bytes (per request data, set by [`run`]): every field that
/// works on a log — sent or stored — charges it before the work starts, so aliases of one
/// field share one budget (chronicle_service::cost).
fn budget<'a>(ctx: &Context<'a>) -> async_graphql::Result<&'a Budget> {
    ctx.data::<Budget>()
}

/// Charges logs that are sent with the request but replayed by the service's batch path
/// (`submitGame`, `submitGames`); `BUDGET_EXCEEDED` when they do not fit.
fn charge(ctx: &Context<'_>, logs: &[&[u8]]) -> async_graphql::Result<()> {
    let bytes: usize = logs.iter().map(|l| l.len()).sum();
    budget(ctx)?.charge(bytes).map_err(errors::service)
}

/// The bearer of the request's token, if it presented a valid one (per request data).
#[derive(Clone, Debug, Default)]
pub struct Caller(pub Option<Bearer>);

/// The schema without a service (for printing the SDL).
pub fn sdl() -> String {
    Schema::build(Query::default(), Mutation, EmptySubscription).finish().sdl()
}

/// Runs one GraphQL request as the service does after HTTP: the document is checked by
/// [`guard::check`] first (a refusal is returned as such, nothing executed), then executed with
/// the caller and a fresh replay budget; every error gets a code and the list is capped.
pub async fn run(
    schema: &ChronicleSchema,
    limits: &Limits,
    caller: Caller,
    mut request: async_graphql::Request,
) -> Result<async_graphql::Response, guard::Refusal> {
    let doc = guard::check(&request.query, &limits.document())?;
    request.set_parsed_query(doc);
    let request = request.data(caller).data(Budget::new(limits.replay_budget));
    let mut response = schema.execute(request).await;
    errors::add_codes(&mut response);
    errors::cap_errors(&mut response);
    Ok(response)
}

/// Whether a response has no data because heavy work found no room (`BUSY`): HTTP answers 503.
pub fn refused_busy(response: &async_graphql::Response) -> bool {
    let busy = async_graphql::Value::from(errors::BUSY);
    response.data == async_graphql::Value::Null
        && response.errors.iter().any(|e| e.extensions.as_ref().and_then(|x| x.get("code")).is_some_and(|c| *c == busy))
}

/// Most directives on one field.
const MAX_DIRECTIVES: usize = 8;

pub fn schema(service: Arc<Service>, limits: Limits) -> ChronicleSchema {
    Schema::build(Query::default(), Mutation, EmptySubscription)
        .data(service)
        // The guard holds every other operation to `max_depth` before execution; this backstop
        // lets introspection (GraphiQL's docs) through.
        .limit_depth(limits.max_depth.max(guard::INTROSPECTION_DEPTH))
        .limit_complexity(limits.max_complexity)
        .limit_directives(MAX_DIRECTIVES)
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
    id.parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| errors::bad_input(format!("`{}` is not a {what} id", id.as_str())))
}
