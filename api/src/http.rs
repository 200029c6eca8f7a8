//! The HTTP surface: `POST /graphql`, GraphiQL at `/graphiql`, `/healthz`, `/readyz`. The
//! GraphQL handler reads the body itself (so the size limit answers with a GraphQL error) and
//! resolves the bearer token (rate-limited per token) before executing.

use std::sync::Arc;

use actix_web::http::header::{self, ContentType};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::json;

use crate::auth::{self, RateLimit};
use crate::graphql::{errors, Caller, ChronicleSchema};
use crate::service::Service;
use crate::store::Store;

pub struct AppState {
    pub schema: ChronicleSchema,
    pub service: Arc<Service>,
    pub rate_limit: RateLimit,
    pub body_limit: usize,
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
    HttpResponse::build(status).content_type(ContentType::json()).body(body.to_string())
}

async fn caller(state: &AppState, req: &HttpRequest) -> Result<Caller, HttpResponse> {
    let header = req.headers().get(header::AUTHORIZATION).map(|h| h.as_bytes());
    let token = match auth::bearer_token(header) {
        Ok(None) => return Ok(Caller(None)),
        Ok(Some(token)) => token,
        Err(auth::HeaderError::Malformed) => {
            return Err(refuse(StatusCode::UNAUTHORIZED, errors::UNAUTHENTICATED, "Authorization must be `Bearer <token>`"))
        }
    };
    match state.service.bearer(token).await {
        Ok(Some(bearer)) if state.rate_limit.allow(token) => Ok(Caller(Some(bearer))),
        Ok(Some(_)) => Err(refuse(StatusCode::TOO_MANY_REQUESTS, errors::RATE_LIMITED, "too many requests for this token; retry later")),
        Ok(None) => Err(refuse(StatusCode::UNAUTHORIZED, errors::UNAUTHENTICATED, "unknown token")),
        Err(e) => Err(refuse(StatusCode::SERVICE_UNAVAILABLE, e.code(), e.message())),
    }
}

async fn graphql(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    let body = match payload.to_bytes_limited(state.body_limit).await {
        Ok(Ok(body)) => body,
        Ok(Err(e)) => return refuse(StatusCode::BAD_REQUEST, errors::BAD_REQUEST, format!("reading the body: {e}")),
        Err(_) => {
            let message = format!("request body over {} bytes", state.body_limit);
            return refuse(StatusCode::PAYLOAD_TOO_LARGE, errors::BODY_TOO_LARGE, message);
        }
    };
    let caller = match caller(&state, &req).await {
        Ok(c) => c,
        Err(refused) => return refused,
    };
    let request: async_graphql::Request = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("the body must be a GraphQL request ({{\"query\": …, \"variables\": …}}): {e}");
            return refuse(StatusCode::BAD_REQUEST, errors::BAD_REQUEST, message);
        }
    };
    let mut response = state.schema.execute(request.data(caller)).await;
    errors::add_codes(&mut response);
    match serde_json::to_vec(&response) {
        Ok(bytes) => HttpResponse::Ok().content_type(ContentType::json()).body(bytes),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL_SERVER_ERROR", e.to_string()),
    }
}

/// GraphiQL, loaded from its CDN by the browser, pointed at `/graphql`.
const GRAPHIQL: &str = include_str!("graphiql.html");

async fn graphiql() -> HttpResponse {
    HttpResponse::Ok().content_type(ContentType::html()).body(GRAPHIQL)
}

/// The process is up.
async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "ok" }))
}

/// The database answers.
async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    match state.service.store().ping().await {
        Ok(()) => HttpResponse::Ok().json(json!({ "status": "ready", "database": state.service.store().backend() })),
        Err(e) => HttpResponse::ServiceUnavailable().json(json!({ "status": "unavailable", "error": e.0 })),
    }
}
