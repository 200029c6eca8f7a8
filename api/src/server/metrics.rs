//! `GET /metrics`: the server's counters and latency histograms in the OpenMetrics text format
//! (which Prometheus scrapes), from the `prometheus-client` crate. One registry per process:
//! every server of the process adds to the same counters (the tests start several).
//!
//! | metric | labels | what |
//! |---|---|---|
//! | `chronicle_http_requests_total` | `route`, `method`, `status` | requests answered, by route pattern (`/games/{id}`, `unmatched`) and method (the standard ones, else `other`) |
//! | `chronicle_http_request_seconds` | `route` | latency histogram, 0.5 ms to ~30 s |
//! | `chronicle_graphql_operations_total` | `operation`, `outcome` | GraphQL requests by `operationName`: the web app's own names, `other` for any other, `anonymous` without one; `ok` or `error` |
//! | `chronicle_replays_total` | `kind` | logs replayed: `verify`, `submit`, `legal`, `steps`, `recorder` |
//! | `chronicle_games_stored_total` | | games newly stored (duplicates excluded) |
//! | `chronicle_service_errors_total` | `code` | the server's own failures by code (store full or unavailable, internal) |
//! | `chronicle_rate_limited_total` | `caller` | requests refused by a rate limit (`token` or `anonymous`) |

use std::sync::OnceLock;
use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

type Labels = Vec<(&'static str, String)>;

/// HTTP methods counted by name; any other is `other`.
const STANDARD_METHODS: [&str; 9] = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"];

/// GraphQL operation names counted by name: the web app's own (`assets/*.js` name every
/// operation they send; a test keeps this list complete).
pub const OPERATIONS: [&str; 8] = [
    "VerifyLog",
    "SubmitGames",
    "CreateTournament",
    "AddGamesToTournament",
    "RenameTournament",
    "RemoveTournamentGame",
    "ReplaceTournamentGame",
    "RecorderSubmit",
];

fn latency_histogram() -> Histogram {
    // 0.5 ms × 2^k: 0.5 ms … 16 s, and +Inf.
    Histogram::new(exponential_buckets(0.000_5, 2.0, 16))
}

pub struct Metrics {
    registry: Registry,
    requests: Family<Labels, Counter>,
    latency: Family<Labels, Histogram, fn() -> Histogram>,
    operations: Family<Labels, Counter>,
    replays: Family<Labels, Counter>,
    stored: Counter,
    service_errors: Family<Labels, Counter>,
    rate_limited: Family<Labels, Counter>,
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::default();
        let requests = Family::<Labels, Counter>::default();
        let latency = Family::<Labels, Histogram, fn() -> Histogram>::new_with_constructor(latency_histogram);
        let operations = Family::<Labels, Counter>::default();
        let replays = Family::<Labels, Counter>::default();
        let stored = Counter::default();
        let service_errors = Family::<Labels, Counter>::default();
        let rate_limited = Family::<Labels, Counter>::default();
        registry.register("chronicle_http_requests", "HTTP requests answered", requests.clone());
        registry.register("chronicle_http_request_seconds", "HTTP request latency", latency.clone());
        registry.register("chronicle_graphql_operations", "GraphQL requests by operation name", operations.clone());
        registry.register("chronicle_replays", "Logs replayed", replays.clone());
        registry.register("chronicle_games_stored", "Games newly stored", stored.clone());
        registry.register("chronicle_service_errors", "The server's own failures", service_errors.clone());
        registry.register("chronicle_rate_limited", "Requests refused by a rate limit", rate_limited.clone());
        Metrics { registry, requests, latency, operations, replays, stored, service_errors, rate_limited }
    }

    /// `route` is a route pattern or `unmatched` (a fixed set); methods outside the standard
    /// ones count as `other`, so that no request can add a series of its own.
    pub fn request(&self, route: &str, method: &str, status: u16, took: Duration) {
        let route = route.to_owned();
        let method = STANDARD_METHODS.iter().find(|m| **m == method).copied().unwrap_or("other");
        self.requests
            .get_or_create(&vec![
                ("route", route.clone()),
                ("method", method.to_owned()),
                ("status", status.to_string()),
            ])
            .inc();
        self.latency.get_or_create(&vec![("route", route)]).observe(took.as_secs_f64());
    }

    /// Operation names are the caller's text: only those of [`OPERATIONS`] are series of their
    /// own, every other name counts as `other` (and none as `anonymous`), so that callers
    /// cannot grow the registry.
    pub fn operation(&self, name: Option<&str>, ok: bool) {
        let name = match name {
            None => "anonymous",
            Some(n) => OPERATIONS.iter().find(|known| **known == n).copied().unwrap_or("other"),
        };
        let outcome = if ok { "ok" } else { "error" };
        self.operations.get_or_create(&vec![("operation", name.to_owned()), ("outcome", outcome.to_owned())]).inc();
    }

    pub fn replays(&self, kind: &'static str, n: u64) {
        self.replays.get_or_create(&vec![("kind", kind.to_owned())]).inc_by(n);
    }

    pub fn stored(&self, n: u64) {
        self.stored.inc_by(n);
    }

    pub fn service_error(&self, code: &str) {
        self.service_errors.get_or_create(&vec![("code", code.to_owned())]).inc();
    }

    pub fn rate_limited(&self, caller: &'static str) {
        self.rate_limited.get_or_create(&vec![("caller", caller.to_owned())]).inc();
    }

    /// The metrics in the OpenMetrics text format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// The process's metrics.
pub fn get() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

/// `GET /metrics`.
pub async fn endpoint() -> actix_web::HttpResponse {
    actix_web::HttpResponse::Ok()
        .insert_header(("Content-Type", "application/openmetrics-text; version=1.0.0; charset=utf-8"))
        .body(get().render())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_render_in_the_openmetrics_text_format() {
        let m = Metrics::new();
        m.request("/games/{id}", "GET", 200, Duration::from_millis(3));
        m.operation(Some("Games"), true);
        m.operation(Some("not a name!"), false);
        m.replays("verify", 2);
        m.stored(1);
        m.rate_limited("anonymous");
        let text = m.render();
        assert!(
            text.contains("chronicle_http_requests_total{route=\"/games/{id}\",method=\"GET\",status=\"200\"} 1"),
            "{text}"
        );
        assert!(text.contains("chronicle_http_request_seconds_bucket{le=\"0.004\",route=\"/games/{id}\"} 1"), "{text}");
        assert!(text.contains("chronicle_graphql_operations_total{operation=\"other\",outcome=\"error\"} 1"));
        assert!(text.contains("chronicle_replays_total{kind=\"verify\"} 2"));
        assert!(text.contains("chronicle_games_stored_total 1"));
        assert!(text.contains("chronicle_rate_limited_total{caller=\"anonymous\"} 1"));
        assert!(text.ends_with("# EOF\n"));
    }

    /// Callers' text never becomes a label value: 10,000 distinct operation names and methods
    /// add two series, `other`, whatever they are.
    #[test]
    fn label_values_come_from_fixed_sets_whatever_callers_send() {
        let m = Metrics::new();
        for i in 0..10_000 {
            m.operation(Some(&format!("Op{i}")), true);
            m.request("unmatched", &format!("M{i}"), 404, Duration::from_millis(1));
        }
        m.operation(Some("VerifyLog"), true);
        let text = m.render();
        assert!(
            text.contains("chronicle_graphql_operations_total{operation=\"other\",outcome=\"ok\"} 10000"),
            "{text}"
        );
        assert!(text.contains("operation=\"VerifyLog\""));
        assert!(text.contains("route=\"unmatched\",method=\"other\",status=\"404\"} 10000"), "{text}");
        assert!(text.len() < 4_000, "{} bytes", text.len());
    }

    /// The web app names every operation it sends, and each name is one of [`OPERATIONS`].
    #[test]
    fn the_web_apps_operations_are_the_counted_ones() {
        let scripts = [include_str!("web/assets/app.js"), include_str!("web/assets/recorder.js")];
        let mut sent = std::collections::BTreeSet::new();
        for script in scripts {
            for kind in ["query", "mutation"] {
                let unnamed = script.find(&format!("{kind}("));
                assert!(unnamed.is_none(), "an unnamed {kind} at byte {unnamed:?}");
                for part in
                    script.split(&format!("\"{kind} ")).skip(1).chain(script.split(&format!("`{kind} ")).skip(1))
                {
                    let name: String = part.chars().take_while(char::is_ascii_alphanumeric).collect();
                    sent.insert(name);
                }
            }
        }
        let counted: std::collections::BTreeSet<String> = OPERATIONS.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(sent, counted);
    }
}
