//! The web app: HTML pages served by `chronicle serve` beside the GraphQL API, rendered on the
//! server with maud (every page's main content — tables, the board at an entry — is plain HTML
//! and reads without JavaScript), enhanced by one small script (`assets/app.js`: uploads through
//! `/graphql`, stepping through a replay without reloading, sorting tables). Assets are compiled
//! into the binary; nothing is fetched from elsewhere. Pages read through the [`Service`], never
//! re-check a rule: states, scores and errors are the engines' (see ARCHITECTURE.md "Web app").

mod analysis;
mod download;
mod games;
mod outcomes;
mod questions;
mod recorder;
mod skill;
mod stats;
mod tournaments;
mod trust;
mod views;

use std::collections::BTreeMap;

use actix_web::http::header::{self, ContentType};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, DOCTYPE};

use crate::server::http::AppState;
use chronicle_service::ServiceError;

const CSS: &str = include_str!("assets/app.css");
const JS: &str = include_str!("assets/app.js");
const RECORDER_JS: &str = include_str!("assets/recorder.js");

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(games::home))
        .route("/games", web::get().to(games::list))
        .route("/games/export", web::get().to(download::download))
        .route("/games/{id}", web::get().to(games::show))
        .route("/games/{id}/board", web::get().to(games::board_fragment))
        .route("/games/{id}/analysis", web::post().to(analysis::request))
        .route("/metrics", web::get().to(crate::server::metrics::endpoint))
        .route("/record", web::get().to(recorder::page_))
        .route("/record/next", web::post().to(recorder::next))
        .route("/record/setup-form", web::get().to(recorder::setup_form))
        .route("/record/setup", web::post().to(recorder::setup))
        .route("/questions", web::get().to(questions::index))
        .route("/questions/{game}", web::get().to(questions::show))
        .route("/stats/strategies", web::get().to(skill::strategies))
        .route("/players", web::get().to(skill::players))
        .route("/players/{name}", web::get().to(skill::player))
        .route("/stats", web::get().to(stats::index))
        .route("/stats/{family}", web::get().to(stats::family))
        .route("/tournaments", web::get().to(tournaments::list))
        .route("/tournaments/{id}", web::get().to(tournaments::show))
        .route("/assets/graphiql/{name}", web::get().to(vendored))
        .route("/assets/app.css", web::get().to(css))
        .route("/assets/app.js", web::get().to(js))
        .route("/assets/recorder.js", web::get().to(recorder_js));
}

/// Whatever no route matches (an unknown path, or a known one with another method): rate-limited
/// per address like every page, then 404.
pub async fn unmatched(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    not_found("such page")
}

async fn css() -> HttpResponse {
    asset("text/css; charset=utf-8", CSS)
}

async fn js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", JS)
}

async fn recorder_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", RECORDER_JS)
}

/// GraphiQL and React (`vendor/`, MIT licences beside them), gzip-compressed in the binary:
/// sent as they are to clients that accept gzip, decompressed for the others.
const VENDORED: [(&str, &str, &[u8]); 4] = [
    ("graphiql.min.js", "text/javascript; charset=utf-8", include_bytes!("vendor/graphiql.min.js.gz")),
    ("graphiql.min.css", "text/css; charset=utf-8", include_bytes!("vendor/graphiql.min.css.gz")),
    ("react.production.min.js", "text/javascript; charset=utf-8", include_bytes!("vendor/react.production.min.js.gz")),
    (
        "react-dom.production.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("vendor/react-dom.production.min.js.gz"),
    ),
];

async fn vendored(req: HttpRequest, name: web::Path<String>) -> HttpResponse {
    let Some(&(_, content_type, gz)) = VENDORED.iter().find(|(n, _, _)| *n == name.as_str()) else {
        return not_found("such file");
    };
    let gzip_ok = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
    let mut response = HttpResponse::Ok();
    response
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"));
    if gzip_ok {
        return response.insert_header((header::CONTENT_ENCODING, "gzip")).body(gz);
    }
    let mut plain = Vec::new();
    match std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gz), &mut plain) {
        Ok(_) => response.body(plain),
        Err(e) => service_problem(&ServiceError::Internal(format!("vendored {name}: {e}"))),
    }
}

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(body)
}

/// A whole page: the shared head, navigation and footer around `body`.
fn page(title: &str, body: Markup) -> HttpResponse {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Chronicle" }
                link rel="stylesheet" href="/assets/app.css";
                script type="module" src="/assets/app.js" {}
            }
            body {
                header.top {
                    a.brand href="/" { "Chronicle" }
                    nav {
                        a href="/games" { "Games" }
                        a href="/record" { "Record" }
                        a href="/stats" { "Statistics" }
                        a href="/tournaments" { "Tournaments" }
                        a href="/graphiql" { "API" }
                    }
                }
                main { (body) }
                footer { "Chronicle verifies game logs move by move. " a href="/graphiql" { "GraphQL API" } }
            }
        }
    };
    HttpResponse::Ok().content_type(ContentType::html()).body(markup.into_string())
}

/// A page that says what went wrong, with the status that fits it.
fn problem(status: StatusCode, title: &str, text: &str) -> HttpResponse {
    let mut response = page(title, html! { h1 { (title) } p.error { (text) } });
    *response.status_mut() = status;
    response
}

fn not_found(what: &str) -> HttpResponse {
    problem(StatusCode::NOT_FOUND, "Not found", &format!("There is no {what}."))
}

/// A service error as a page: the request's own problem in full, a fixed text for the
/// server's (logged, as the API does).
fn service_problem(e: &ServiceError) -> HttpResponse {
    if e.is_server_side() {
        crate::server::metrics::get().service_error(e.code());
        tracing::error!(code = e.code(), error = e.message(), "web page failed");
    }
    let status = match e {
        ServiceError::NotFound(_) => StatusCode::NOT_FOUND,
        ServiceError::BadInput(_) => StatusCode::BAD_REQUEST,
        ServiceError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
        ServiceError::StorageFull(_) | ServiceError::Unavailable(_) | ServiceError::ReadOnly(_) => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        // More work than this server admits (every game's rows over its memory limit).
        ServiceError::BudgetExceeded(_) => {
            return problem(StatusCode::SERVICE_UNAVAILABLE, "Too much for this server", e.public_message())
        }
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    problem(status, "Something went wrong", e.public_message())
}

/// Anonymous pages share the API's per-address rate limit: the refusal, when over it.
fn refused(state: &AppState, req: &HttpRequest) -> Option<HttpResponse> {
    let key = req.peer_addr().map(|a| a.ip().to_string()).unwrap_or_default();
    (!state.anonymous_limit.allow(&key)).then(|| {
        crate::server::metrics::get().rate_limited("anonymous");
        let text = "Too many requests from this address; retry in a minute.";
        problem(StatusCode::TOO_MANY_REQUESTS, "Too many requests", text)
    })
}

/// Percent-encodes a path segment (`:` stays: keys read `/players/name:ana`).
pub(super) fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b':' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The page's query `q` with `key` set to `value`, as a link's `?…`: a link that changes one
/// filter and keeps the others.
pub(super) fn query_with(q: &BTreeMap<String, String>, key: &str, value: &str) -> String {
    let mut q = q.clone();
    q.insert(key.to_owned(), value.to_owned());
    let pairs: Vec<String> = q.iter().map(|(k, v)| format!("{}={}", urlencode(k), urlencode(v))).collect();
    format!("?{}", pairs.join("&"))
}

/// The query string as a map (the first value of each key); malformed pairs are ignored.
pub(super) fn query_map(req: &HttpRequest) -> BTreeMap<String, String> {
    web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| {
            let mut map = BTreeMap::new();
            for (k, v) in q.into_inner() {
                map.entry(k).or_insert(v);
            }
            map
        })
        .unwrap_or_default()
}

/// A non-empty, trimmed query value.
fn param<'a>(q: &'a BTreeMap<String, String>, key: &str) -> Option<&'a str> {
    q.get(key).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// A count as a sentence writes it, thousands apart: `40,000`.
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A percentage with one decimal (`—` when absent).
fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "—".to_owned(), |r| format!("{:.1}%", r * 100.0))
}

fn number(x: Option<f64>, decimals: usize) -> String {
    x.map_or_else(|| "—".to_owned(), |x| format!("{:.decimals$}", unsigned_zero(x, decimals)))
}

/// `x` with one decimal, with its sign (`+`/`-`) when `sign`.
fn tenths(x: f64, sign: bool) -> String {
    let x = unsigned_zero(x, 1);
    if sign {
        format!("{x:+.1}")
    } else {
        format!("{x:.1}")
    }
}

/// `x`, or zero when `x` rounds to zero at `decimals` decimals: a small negative value (an
/// interval's end just below zero) is written `0.0`, not `-0.0`.
fn unsigned_zero(x: f64, decimals: usize) -> f64 {
    let scale = 10f64.powi(i32::try_from(decimals).unwrap_or(0));
    if (x * scale).round() == 0.0 {
        0.0
    } else {
        x
    }
}

/// The status of a verdict as shown.
fn status_label(s: chronicle_game::Status) -> &'static str {
    match s {
        chronicle_game::Status::Complete => "complete",
        chronicle_game::Status::Incomplete => "incomplete",
        chronicle_game::Status::Invalid => "invalid",
    }
}

#[cfg(test)]
mod tests {
    /// Counts in sentences group their thousands: a player reads 40,000, not 40000.
    #[test]
    fn counts_are_written_with_thousands_apart() {
        let cases = [(0, "0"), (999, "999"), (1_000, "1,000"), (40_000, "40,000"), (1_234_567, "1,234,567")];
        for (n, shown) in cases {
            assert_eq!(super::count(n), shown);
        }
    }

    /// An interval's end just below zero reads `0.0` (`+0.0` signed), never `-0.0`; other
    /// values keep their sign.
    #[test]
    fn values_that_round_to_zero_are_written_without_a_minus() {
        let cases: [(f64, bool, &str); 7] = [
            (-0.04, false, "0.0"),
            (-0.04, true, "+0.0"),
            (0.04, true, "+0.0"),
            (-0.05, true, "-0.1"),
            (-3.6, true, "-3.6"),
            (2.25, false, "2.2"),
            (-0.0, false, "0.0"),
        ];
        for (x, sign, shown) in cases {
            assert_eq!(super::tenths(x, sign), shown, "{x}");
        }
        assert_eq!(super::number(Some(-0.004), 2), "0.00");
        assert_eq!(super::number(Some(-0.4), 0), "0");
        assert_eq!(super::number(None, 1), "—");
    }
}
