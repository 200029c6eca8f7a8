//! `GET /games/export?table=…&format=…` with the games list's filters: the games as a table
//! (`chronicle export`'s tables and formats), as a file download.
//!
//! Downloads read the stored columns (verdicts, players, score rows, counters, facts) a page
//! of [`PAGE`] games at a time, in a few queries per page; no log is read or replayed. CSV and
//! NDJSON are **streamed**, so memory stays that of one page whatever the download's size.
//! Parquet keeps its row groups' statistics in a footer written last, so it is built whole in
//! memory, up to [`MAX_IN_MEMORY`] games. What bounds a download's cost, known before it starts:
//!
//! - **Games**: the CPU a download costs is about proportional to its games, four times more
//!   for the tables of facts (measured: docs/performance.md, "Downloads"). Without a token a
//!   download may cost [`ANONYMOUS_COST`] game units (5,000 games of `games`, 1,250 of
//!   `placements`: under a second of CPU); with a valid `Authorization: Bearer` token, up to
//!   [`MAX_STREAMED`] games. More are refused (narrow the filters, send a token, or use
//!   `chronicle export`).
//! - **Work**: at most [`CONCURRENT`] pages are made at once (a page waits for its turn); a
//!   download holds no turn while its client reads, so clients that stall hold none.
//! - **Downloads**: at most [`PER_CLIENT`] per client (its token, else its address) and
//!   [`OPEN`] in all are open at once, each holding at most one page; others are told to retry.
//! - **Idle readers**: a download whose client reads nothing for `--download-idle` seconds (20)
//!   is cut and stops counting, so stalled clients cannot keep the others out.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use actix_web::{http::StatusCode, web, HttpRequest, HttpResponse};
use clap::ValueEnum;
use futures_util::Stream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use chronicle_service::auth;
use chronicle_service::{Service, ServiceError};
use chronicle_store::TokenLookup;

use super::{param, query_map, refused, service_problem};
use crate::commands::export::{Format, Table};
use crate::server::http::AppState;

/// Most games in a streamed (CSV, NDJSON) download with a valid token.
pub const MAX_STREAMED: i64 = 100_000;
/// What a download without a token may cost, in game units: a game of a table read from the
/// games' rows costs one, a game of a table of facts [`FACTS_COST`].
pub const ANONYMOUS_COST: i64 = 5_000;
/// The cost of one game in a table of facts (furnishings, weapons, placements), against one in
/// the others: 0.70 against 0.17–0.19 ms of the server's CPU per game (docs/performance.md).
pub const FACTS_COST: i64 = 4;
/// Most games in a Parquet download (built in memory).
pub const MAX_IN_MEMORY: i64 = 5_000;
/// Pages of downloads made at once.
pub const CONCURRENT: usize = 2;
/// Downloads open at once for one client.
pub const PER_CLIENT: usize = 1;
/// Downloads open at once in all.
pub const OPEN: usize = 32;
/// [`Lease::handed_out`] while the download makes its next part.
const WORKING: u64 = u64::MAX;
/// Games read and written per page of a streamed download.
const PAGE: usize = 200;

fn slots() -> Arc<Semaphore> {
    static SLOTS: OnceLock<Arc<Semaphore>> = OnceLock::new();
    Arc::clone(SLOTS.get_or_init(|| Arc::new(Semaphore::new(CONCURRENT))))
}

/// Downloads running per client.
fn running() -> &'static Mutex<HashMap<String, usize>> {
    static RUNNING: OnceLock<Mutex<HashMap<String, usize>>> = OnceLock::new();
    RUNNING.get_or_init(Mutex::default)
}

/// One client's running download; counted out when dropped.
struct ClientSlot(String);

impl ClientSlot {
    /// The client's slot, unless it has [`PER_CLIENT`] downloads open or [`OPEN`] are open in
    /// all: then why not.
    fn take(client: &str) -> Result<ClientSlot, String> {
        let mut running = running().lock().map_err(|_| "downloads are unavailable".to_owned())?;
        if running.values().sum::<usize>() >= OPEN {
            return Err(format!("{OPEN} downloads are open; try again in a minute"));
        }
        let n = running.entry(client.to_owned()).or_insert(0);
        if *n >= PER_CLIENT {
            return Err(format!("You have {PER_CLIENT} download open; try again when it has finished"));
        }
        *n += 1;
        Ok(ClientSlot(client.to_owned()))
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        if let Ok(mut running) = running().lock() {
            if let Some(n) = running.get_mut(&self.0) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    running.remove(&self.0);
                }
            }
        }
    }
}

/// What an open download holds: its client's slot. Released when the download ends, its
/// client goes, or its client stops reading for its idle time.
struct Lease {
    held: Mutex<Option<ClientSlot>>,
    /// When the last part went to the client, in milliseconds since `start`; [`WORKING`] while
    /// the download makes its next part (the client is not waited for then).
    handed_out: AtomicU64,
    start: Instant,
    cut: AtomicBool,
}

impl Lease {
    fn new(client: ClientSlot) -> Arc<Lease> {
        Arc::new(Lease {
            held: Mutex::new(Some(client)),
            handed_out: AtomicU64::new(WORKING),
            start: Instant::now(),
            cut: AtomicBool::new(false),
        })
    }

    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// The client asked for the next part: the download works on it.
    fn working(&self) {
        self.handed_out.store(WORKING, Ordering::Release);
    }

    /// A part went out: the download waits for the client to read it.
    fn handed_out(&self) {
        self.handed_out.store(self.now(), Ordering::Release);
    }

    fn release(&self) {
        if let Ok(mut held) = self.held.lock() {
            held.take();
        }
    }

    /// Watches the client's reads until the download ends; cuts it when they stop.
    fn watch(self: Arc<Lease>, idle_time: Duration) {
        let lease = Arc::downgrade(&self);
        drop(self);
        actix_web::rt::spawn(async move {
            let idle = u64::try_from(idle_time.as_millis()).unwrap_or(u64::MAX);
            loop {
                actix_web::rt::time::sleep(idle_time / 4).await;
                // The download ended (its stream and lease are gone).
                let Some(lease) = lease.upgrade() else { return };
                let handed_out = lease.handed_out.load(Ordering::Acquire);
                if handed_out != WORKING && lease.now().saturating_sub(handed_out) > idle {
                    tracing::info!("a download's client stopped reading; the download is cut");
                    lease.cut.store(true, Ordering::Release);
                    lease.release();
                    return;
                }
            }
        });
    }
}

/// A download's body that notes each read of its client on its lease, and ends when the lease
/// was cut.
struct Watched<S> {
    inner: Pin<Box<S>>,
    lease: Arc<Lease>,
}

impl<S: Stream<Item = Result<Bytes, std::io::Error>>> Stream for Watched<S> {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.lease.cut.load(Ordering::Acquire) {
            return Poll::Ready(Some(Err(std::io::Error::other("the client stopped reading"))));
        }
        self.lease.working();
        let polled = self.inner.as_mut().poll_next(cx);
        match &polled {
            Poll::Ready(Some(_)) => self.lease.handed_out(),
            Poll::Ready(None) => self.lease.release(),
            Poll::Pending => {}
        }
        polled
    }
}

fn bad(text: &str) -> HttpResponse {
    super::problem(StatusCode::BAD_REQUEST, "Bad download", text)
}

fn busy(text: &str) -> HttpResponse {
    let mut busy = super::problem(StatusCode::SERVICE_UNAVAILABLE, "Busy", text);
    busy.headers_mut().insert(actix_web::http::header::RETRY_AFTER, actix_web::http::header::HeaderValue::from(30));
    busy
}

/// Who asks: a valid token's hash (and so the larger limit), else the client's address; an
/// invalid token is refused.
async fn client(state: &AppState, req: &HttpRequest) -> Result<(String, bool), HttpResponse> {
    let header = req.headers().get(actix_web::http::header::AUTHORIZATION).map(|h| h.as_bytes());
    let address = || req.peer_addr().map(|a| a.ip().to_string()).unwrap_or_default();
    match auth::bearer_token(header) {
        Ok(None) => match refused(state, req) {
            Some(r) => Err(r),
            None => Ok((address(), false)),
        },
        Ok(Some(token)) => match state.service.bearer(token).await {
            Ok(TokenLookup::Valid(_)) => Ok((format!("token:{}", auth::token_hash(token)), true)),
            Ok(_) => Err(super::problem(StatusCode::UNAUTHORIZED, "Not allowed", "This token is not valid.")),
            Err(e) => Err(service_problem(&e)),
        },
        Err(_) => {
            Err(super::problem(StatusCode::UNAUTHORIZED, "Not allowed", "Authorization must be `Bearer <token>`."))
        }
    }
}

pub async fn download(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    let (client, with_token) = match client(&state, &req).await {
        Ok(c) => c,
        Err(refusal) => return refusal,
    };
    let q = query_map(&req);
    let Ok(table) = Table::from_str(param(&q, "table").unwrap_or("games"), true) else {
        return bad("table is games, player-games, score-rows, furnishings, weapons, placements or counters");
    };
    let Ok(format) = Format::from_str(param(&q, "format").unwrap_or("csv"), true) else {
        return bad("format is csv, parquet or ndjson");
    };
    let (filter, notes) = super::games::filter_of(&q);
    if let Some(note) = notes.first() {
        return bad(note);
    }
    let client_slot = match ClientSlot::take(&client) {
        Ok(slot) => slot,
        Err(why) => return busy(&why),
    };
    let most = most_games(table, format, with_token);
    let ids = match state.service.list(&filter, 0, most + 1).await {
        Ok(ids) => ids,
        Err(e) => return service_problem(&e),
    };
    if ids.len() as i64 > most {
        let token = if with_token || format == Format::Parquet { "" } else { ", send a token" };
        return bad(&format!(
            "more than {most} games match for {}: narrow the filters{token}, or use `chronicle export`",
            format.extension()
        ));
    }
    let name = table.to_possible_value().map_or_else(|| "games".to_owned(), |v| v.get_name().to_owned());
    let mut response = HttpResponse::Ok();
    response.insert_header(("Content-Type", format.content_type())).insert_header((
        "Content-Disposition",
        format!("attachment; filename=\"chronicle-{name}.{}\"", format.extension()),
    ));
    if format == Format::Parquet {
        return match page_bytes(&state.service, table, format, true, &ids).await {
            Ok(bytes) => response.body(bytes),
            Err(e) => service_problem(&e),
        };
    }
    let lease = Lease::new(client_slot);
    Arc::clone(&lease).watch(state.download_idle);
    response.streaming(Watched { inner: Box::pin(stream(Arc::clone(&state.service), table, format, ids)), lease })
}

/// The most games one download of `table` in `format` may hold, known before it starts.
fn most_games(table: Table, format: Format, with_token: bool) -> i64 {
    match (format, with_token) {
        (Format::Parquet, _) => MAX_IN_MEMORY,
        (_, true) => MAX_STREAMED,
        (_, false) => ANONYMOUS_COST / if table.needs_facts() { FACTS_COST } else { 1 },
    }
}

/// The table of these games in `format` (a CSV part has its header when `first`), made in its
/// turn (at most [`CONCURRENT`] at once).
async fn page_bytes(
    service: &Service,
    table: Table,
    format: Format,
    first: bool,
    ids: &[i64],
) -> Result<Bytes, ServiceError> {
    let _turn: OwnedSemaphorePermit =
        slots().acquire_owned().await.map_err(|_| ServiceError::Busy("the server is stopping".into()))?;
    let games = service.export_games(ids, table.needs_facts()).await?;
    // Writing the table is CPU work: off the HTTP worker, which serves other connections.
    let written = web::block(move || {
        let mut bytes = Vec::new();
        crate::commands::export::frame(table, &games)
            .and_then(|(mut f, _)| crate::commands::export::write_part(&mut f, format, first, &mut bytes))
            .map(|()| bytes)
    })
    .await
    .map_err(|e| ServiceError::Internal(format!("export: {e}")))?;
    written.map(Bytes::from).map_err(|e| ServiceError::Internal(format!("export: {e}")))
}

/// The download's body, page by page.
fn stream(
    service: Arc<Service>,
    table: Table,
    format: Format,
    ids: Vec<i64>,
) -> impl Stream<Item = Result<Bytes, std::io::Error>> {
    // An empty selection still gets its header (a CSV with no rows).
    let pages: Vec<Vec<i64>> =
        if ids.is_empty() { vec![Vec::new()] } else { ids.chunks(PAGE).map(<[i64]>::to_vec).collect() };
    let state = (service, pages.into_iter(), true);
    futures_util::stream::unfold(Some(state), move |state| async move {
        let (service, mut pages, first) = state?;
        let page = pages.next()?;
        match page_bytes(&service, table, format, first, &page).await {
            Ok(bytes) => Some((Ok(bytes), Some((service, pages, false)))),
            Err(e) => {
                // The response has begun: the connection is cut, and the cause logged.
                tracing::error!(error = e.message(), "streamed download failed");
                Some((Err(std::io::Error::other("the download failed")), None))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A download without a token is held to a cost in game units, the tables of facts costing
    /// four times as much; a token raises it to every streamed game; Parquet is built whole.
    #[test]
    fn a_download_without_a_token_holds_what_its_cost_allows() {
        assert_eq!(most_games(Table::Games, Format::Csv, false), 5_000);
        assert_eq!(most_games(Table::Placements, Format::Ndjson, false), 1_250);
        assert_eq!(most_games(Table::Placements, Format::Csv, true), MAX_STREAMED);
        assert_eq!(most_games(Table::ScoreRows, Format::Parquet, true), MAX_IN_MEMORY);
    }
}
