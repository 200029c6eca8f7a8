//! `GET /games/export?table=…&format=…` with the games list's filters: the games as a table
//! (`chronicle export`'s tables and formats), as a file download.
//!
//! CSV and NDJSON are **streamed**: games are read and written a page at a time, so memory
//! stays that of one page whatever the download's size; up to [`MAX_STREAMED`] games. Parquet
//! keeps its row groups' statistics in a footer written last, so it is built whole in memory,
//! up to [`MAX_IN_MEMORY`] games. More games are refused (narrow the filters, or use
//! `chronicle export`), and at most [`CONCURRENT`] downloads run at once (others are told to
//! retry), so downloads cannot take the service's memory or database connections.

use std::sync::{Arc, OnceLock};

use actix_web::web::Bytes;
use actix_web::{http::StatusCode, web, HttpRequest, HttpResponse};
use clap::ValueEnum;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use chronicle_service::{Service, ServiceError};

use super::{param, query_map, refused, service_problem};
use crate::export::{Format, Table};
use crate::http::AppState;

/// Most games in a streamed (CSV, NDJSON) download.
pub const MAX_STREAMED: i64 = 100_000;
/// Most games in a Parquet download (built in memory).
pub const MAX_IN_MEMORY: i64 = 5_000;
/// Downloads running at once.
pub const CONCURRENT: usize = 2;
/// Games read and written per page of a streamed download.
const PAGE: usize = 100;

fn slots() -> Arc<Semaphore> {
    static SLOTS: OnceLock<Arc<Semaphore>> = OnceLock::new();
    Arc::clone(SLOTS.get_or_init(|| Arc::new(Semaphore::new(CONCURRENT))))
}

fn bad(text: &str) -> HttpResponse {
    super::problem(StatusCode::BAD_REQUEST, "Bad download", text)
}

pub async fn download(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
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
    let Ok(permit) = slots().try_acquire_owned() else {
        let mut busy = super::problem(
            StatusCode::SERVICE_UNAVAILABLE,
            "Busy",
            &format!("{CONCURRENT} downloads are running; try again in a minute"),
        );
        busy.headers_mut().insert(actix_web::http::header::RETRY_AFTER, actix_web::http::header::HeaderValue::from(30));
        return busy;
    };
    let most = if format == Format::Parquet { MAX_IN_MEMORY } else { MAX_STREAMED };
    let ids = match state.service.list(&filter, 0, most + 1).await {
        Ok(ids) => ids,
        Err(e) => return service_problem(&e),
    };
    if ids.len() as i64 > most {
        return bad(&format!(
            "more than {most} games match for {}: narrow the filters, or use `chronicle export`",
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
    response.streaming(stream(Arc::clone(&state.service), table, format, ids, permit))
}

/// The table of these games in `format` (a CSV part has its header when `first`).
async fn page_bytes(
    service: &Service,
    table: Table,
    format: Format,
    first: bool,
    ids: &[i64],
) -> Result<Bytes, ServiceError> {
    let games = service.stored_games(ids).await?;
    let mut bytes = Vec::new();
    crate::export::frame(table, &games)
        .and_then(|(mut f, _)| crate::export::write_part(&mut f, format, first, &mut bytes))
        .map_err(|e| ServiceError::Internal(format!("export: {e}")))?;
    Ok(Bytes::from(bytes))
}

/// The download's body, page by page; the permit is released when it ends or the client goes.
fn stream(
    service: Arc<Service>,
    table: Table,
    format: Format,
    ids: Vec<i64>,
    permit: OwnedSemaphorePermit,
) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
    // An empty selection still gets its header (a CSV with no rows).
    let pages: Vec<Vec<i64>> =
        if ids.is_empty() { vec![Vec::new()] } else { ids.chunks(PAGE).map(<[i64]>::to_vec).collect() };
    let state = (service, pages.into_iter(), true, permit);
    futures_util::stream::unfold(Some(state), move |state| async move {
        let (service, mut pages, first, permit) = state?;
        let page = pages.next()?;
        match page_bytes(&service, table, format, first, &page).await {
            Ok(bytes) => Some((Ok(bytes), Some((service, pages, false, permit)))),
            Err(e) => {
                // The response has begun: the connection is cut, and the cause logged.
                tracing::error!(error = e.message(), "streamed download failed");
                Some((Err(std::io::Error::other("the download failed")), None))
            }
        }
    })
}
