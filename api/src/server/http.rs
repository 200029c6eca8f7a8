//! The HTTP surface: `POST /graphql`, the query console (GraphiQL) at `/graphiql`, `/healthz`, `/readyz`.
//! The GraphQL handler does everything that can refuse a request cheaply before the executor
//! sees it, in this order: the content type, the bearer token (rate-limited per token) or, for
//! anonymous requests, the client address's rate limit, room for a large body (admission
//! control), the body itself (size limit), and the document's size and shape (`guard`).

use std::net::IpAddr;
use std::sync::Arc;

use actix_web::http::header::{self, ContentType};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::json;

use crate::server::graphql::{errors, Caller, ChronicleSchema, Limits};
use chronicle_service::admission::SMALL_BODY;
use chronicle_service::auth::{self, RateLimit};
use chronicle_service::{Readiness, Service, ServiceError};
use chronicle_store::TokenLookup;

pub struct AppState {
    pub schema: ChronicleSchema,
    pub service: Arc<Service>,
    /// Requests per minute per bearer token.
    pub rate_limit: RateLimit,
    /// Requests per minute per client address, for requests without a token.
    pub anonymous_limit: RateLimit,
    pub body_limit: usize,
    pub limits: Limits,
    /// Where requests with large bodies run.
    pub offload: Arc<crate::server::offload::Offload>,
    /// How long a download waits for its client to read.
    pub download_idle: std::time::Duration,
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/graphql", web::post().to(graphql))
        .route("/graphiql", web::get().to(graphiql))
        .route("/healthz", web::get().to(healthz))
        .route("/readyz", web::get().to(readyz));
}

/// A response in GraphQL's error shape, for failures before execution.
fn refuse(status: StatusCode, code: &str, message: impl Into<String>) -> HttpResponse {
    let body = json!({ "errors": [{ "message": message.into(), "extensions": { "code": code } }] });
    let mut response = HttpResponse::build(status);
    if status == StatusCode::SERVICE_UNAVAILABLE || status == StatusCode::TOO_MANY_REQUESTS {
        response.insert_header((header::RETRY_AFTER, "1"));
    }
    response.content_type(ContentType::json()).body(body.to_string())
}

/// `application/json` (the GraphQL-over-HTTP request type) or
/// `application/graphql-response+json`, with any parameters. Anything else, `text/plain` in
/// particular (which a browser sends across origins without asking), is refused.
pub(crate) fn json_content_type(req: &HttpRequest) -> bool {
    let Some(value) = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    let essence = value.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/json")
        || essence.eq_ignore_ascii_case("application/graphql-response+json")
}

/// The client's address: the connection's peer (a proxy in front must limit by its own
/// rules; forwarded headers are not trusted).
fn client_address(req: &HttpRequest) -> Option<IpAddr> {
    req.peer_addr().map(|a| a.ip())
}

async fn caller(state: &AppState, req: &HttpRequest) -> Result<Caller, HttpResponse> {
    let header = req.headers().get(header::AUTHORIZATION).map(|h| h.as_bytes());
    let token = match auth::bearer_token(header) {
        Ok(None) => {
            let key = client_address(req).map_or_else(|| "unknown".to_owned(), |ip| ip.to_string());
            if !state.anonymous_limit.allow(&key) {
                crate::server::metrics::get().rate_limited("anonymous");
                let message = "too many requests from this address; retry later, or use a token";
                return Err(refuse(StatusCode::TOO_MANY_REQUESTS, errors::RATE_LIMITED, message));
            }
            return Ok(Caller(None));
        }
        Ok(Some(token)) => token,
        Err(auth::HeaderError::Malformed) => {
            return Err(refuse(
                StatusCode::UNAUTHORIZED,
                errors::UNAUTHENTICATED,
                "Authorization must be `Bearer <token>`",
            ))
        }
    };
    let unauthenticated = |m: &str| refuse(StatusCode::UNAUTHORIZED, errors::UNAUTHENTICATED, m);
    match state.service.bearer(token).await {
        Ok(TokenLookup::Valid(bearer)) if state.rate_limit.allow(&auth::token_hash(token)) => Ok(Caller(Some(bearer))),
        Ok(TokenLookup::Valid(_)) => Err({
            crate::server::metrics::get().rate_limited("token");
            refuse(StatusCode::TOO_MANY_REQUESTS, errors::RATE_LIMITED, "too many requests for this token; retry later")
        }),
        Ok(TokenLookup::Revoked) => Err(unauthenticated("this token was revoked")),
        Ok(TokenLookup::Expired) => Err(unauthenticated("this token has expired")),
        Ok(TokenLookup::Unknown) => Err(unauthenticated("unknown token")),
        Err(e) => {
            let (code, message) = errors::public(e);
            Err(refuse(StatusCode::SERVICE_UNAVAILABLE, code, message))
        }
    }
}

async fn graphql(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    if !json_content_type(&req) {
        let message = "a GraphQL request is sent as `Content-Type: application/json`";
        return refuse(StatusCode::UNSUPPORTED_MEDIA_TYPE, errors::UNSUPPORTED_MEDIA_TYPE, message);
    }
    let caller = match caller(&state, &req).await {
        Ok(c) => c,
        Err(refused) => return refused,
    };
    // Room for the body before reading it: its declared length, or the largest allowed.
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(state.body_limit);
    if declared > state.body_limit {
        return too_large(state.body_limit);
    }
    let _room = match state.service.admission().body(declared).await {
        Ok(permit) => permit,
        Err(busy) => return refuse(StatusCode::SERVICE_UNAVAILABLE, errors::BUSY, busy.0),
    };
    let body = match payload.to_bytes_limited(state.body_limit).await {
        Ok(Ok(body)) => body,
        Ok(Err(e)) => return refuse(StatusCode::BAD_REQUEST, errors::BAD_REQUEST, format!("reading the body: {e}")),
        Err(_) => return too_large(state.body_limit),
    };
    // Large bodies and anything that replays logs run off the HTTP workers.
    let heavy = body.len() > SMALL_BODY || REPLAYING_FIELDS.iter().any(|f| body.windows(f.len()).any(|w| w == *f));
    let (schema, limits) = (state.schema.clone(), state.limits);
    let work = answer(schema, limits, caller, body);
    let answered = if heavy { state.offload.run(work).await } else { Some(work.await) };
    match answered {
        Some(Answer::Refused(status, code, message)) => refuse(status, code, message),
        Some(Answer::Busy(bytes)) => HttpResponse::ServiceUnavailable()
            .insert_header((header::RETRY_AFTER, "1"))
            .content_type(ContentType::json())
            .body(bytes),
        Some(Answer::Done(bytes)) => HttpResponse::Ok().content_type(ContentType::json()).body(bytes),
        None => {
            let failure = ServiceError::Internal("a large request's thread failed".into());
            let (code, message) = errors::public(failure);
            refuse(StatusCode::INTERNAL_SERVER_ERROR, code, message)
        }
    }
}

/// Names of the fields that work on logs, sent or stored (`log` covers `verifyLog` and a game's
/// `log`; `legal` covers `legalEntries`): a body that mentions one runs off the HTTP workers,
/// where serialising a large answer cannot stall cheap requests.
const REPLAYING_FIELDS: [&[u8]; 8] =
    [b"log", b"submitGame", b"replay", b"ledger", b"trust", b"alternatives", b"legal", b"entrySteps"];

/// What a request body comes to.
enum Answer {
    Refused(StatusCode, &'static str, String),
    /// Refused whole for want of room: a 503 the client can retry.
    Busy(Vec<u8>),
    Done(Vec<u8>),
}

/// Parses a body, runs it and serialises the response: the CPU-heavy part of a request.
async fn answer(schema: ChronicleSchema, limits: Limits, caller: Caller, body: web::Bytes) -> Answer {
    let request = match read_request(&body) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("the body must be a GraphQL request ({{\"query\": …, \"variables\": …}}): {e}");
            return Answer::Refused(StatusCode::BAD_REQUEST, errors::BAD_REQUEST, message);
        }
    };
    drop(body);
    let operation = request.operation_name.clone();
    let response = match crate::server::graphql::run(&schema, &limits, caller, request).await {
        Ok(response) => response,
        // Like the executor's own validation errors: a well-formed request whose document is
        // refused is answered 200 with the error (GraphQL over HTTP, `application/json`).
        Err(refusal) => {
            crate::server::metrics::get().operation(operation.as_deref(), false);
            return Answer::Refused(StatusCode::OK, refusal.code, refusal.message);
        }
    };
    crate::server::metrics::get().operation(operation.as_deref(), response.errors.is_empty());
    let busy = crate::server::graphql::refused_busy(&response);
    match serde_json::to_vec(&response) {
        Ok(bytes) if busy => Answer::Busy(bytes),
        Ok(bytes) => Answer::Done(bytes),
        Err(e) => {
            let (code, message) = errors::public(ServiceError::Internal(format!("serializing a response: {e}")));
            Answer::Refused(StatusCode::INTERNAL_SERVER_ERROR, code, message)
        }
    }
}

/// Objects larger than this among the variables (logs) are passed on as their text.
const LARGE_VARIABLE: usize = 64 * 1024;

/// A GraphQL request as sent. Variables are kept as their text until they are placed.
#[derive(serde::Deserialize)]
struct SentRequest<'a> {
    query: String,
    #[serde(rename = "operationName", default)]
    operation_name: Option<String>,
    #[serde(borrow, default)]
    variables: Option<std::collections::BTreeMap<String, &'a serde_json::value::RawValue>>,
}

/// The request of a body. A large object among the variables, or in a list that is a variable
/// — a log, or the logs of `submitGames` — is passed on as a string holding its text, which the
/// `JSON` arguments that take logs read as the log (see
/// `graphql::log_bytes`): building a tree of values for it first would cost time and memory
/// in proportion to its number of values before the request's budget could refuse it (a 7 MB
/// log of 160,000 small objects: 0.76 s of CPU and 210 MiB; docs/reliability.md). Its bytes
/// are then the log's bytes exactly as sent.
fn read_request(body: &[u8]) -> Result<async_graphql::Request, serde_json::Error> {
    let sent: SentRequest<'_> = serde_json::from_slice(body)?;
    let mut variables = serde_json::Map::new();
    for (name, raw) in sent.variables.unwrap_or_default() {
        let text = raw.get();
        let value = if text.len() > LARGE_VARIABLE && text.starts_with('[') {
            let items: Vec<&serde_json::value::RawValue> = serde_json::from_str(text)?;
            serde_json::Value::Array(items.into_iter().map(variable).collect::<Result<_, _>>()?)
        } else {
            variable(raw)?
        };
        variables.insert(name, value);
    }
    let mut request = async_graphql::Request::new(sent.query)
        .variables(async_graphql::Variables::from_json(serde_json::Value::Object(variables)));
    if let Some(name) = sent.operation_name {
        request = request.operation_name(name);
    }
    Ok(request)
}

/// A variable's value: a large object as its text, anything else as it is.
fn variable(raw: &serde_json::value::RawValue) -> Result<serde_json::Value, serde_json::Error> {
    let text = raw.get();
    if text.len() > LARGE_VARIABLE && text.starts_with('{') {
        return Ok(serde_json::Value::String(text.to_owned()));
    }
    serde_json::from_str(text)
}

fn too_large(limit: usize) -> HttpResponse {
    refuse(StatusCode::PAYLOAD_TOO_LARGE, errors::BODY_TOO_LARGE, format!("request body over {limit} bytes"))
}

/// The query console: GraphiQL, served from the binary (`web/vendor/`), posting to `/graphql`.
const CONSOLE: &str = include_str!("graphiql.html");

async fn graphiql() -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
             font-src 'self' data:; img-src 'self' data:; object-src 'none'; base-uri 'none'; \
             frame-ancestors 'none'",
        ))
        .body(CONSOLE)
}

/// The content security policy of every HTML page but the query console (whose vendored
/// GraphiQL needs inline scripts and styles, and has its own): scripts, styles and images from
/// the server only, no inline script or style, no plugins, forms post here, never framed.
pub const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                               object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Headers every response carries: no content sniffing, no framing, referrers only to this
/// server; and an HTML response without a policy of its own gets [`PAGE_POLICY`].
pub fn secure_headers(headers: &mut header::HeaderMap) {
    let html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/html"));
    if html && !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, header::HeaderValue::from_static(PAGE_POLICY));
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, header::HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, header::HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, header::HeaderValue::from_static("same-origin"));
}

/// The process is up.
async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "ok" }))
}

/// The database answers and can write. The reasons are codes; the database's own words go to
/// the server's log.
async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let database = state.service.store_backend();
    match state.service.ready().await {
        Readiness::Ready if state.service.read_only() => {
            HttpResponse::Ok().json(json!({ "status": "ready", "database": database, "standby": true }))
        }
        Readiness::Ready => HttpResponse::Ok().json(json!({ "status": "ready", "database": database })),
        Readiness::DatabaseUnavailable => HttpResponse::ServiceUnavailable()
            .json(json!({ "status": "unavailable", "database": database, "reason": "DATABASE_UNAVAILABLE" })),
        Readiness::StorageFull => HttpResponse::ServiceUnavailable()
            .json(json!({ "status": "unavailable", "database": database, "reason": "STORAGE_FULL" })),
    }
}
