//! `chronicle serve`: opens the store, builds the schema and runs the HTTP server until SIGINT
//! or SIGTERM (in-flight requests get `--shutdown-timeout` seconds to finish), then closes the
//! store.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use actix_web::dev::Service as _;
use actix_web::{web, App, HttpServer};

use crate::server::config::{LogFormat, ServeArgs};
use crate::server::graphql;
use crate::server::http::{self, AppState};
use chronicle_service::auth::RateLimit;
use chronicle_service::Service;
use chronicle_store as store;
use chronicle_store::Store;

/// Structured logs on standard error, filtered by RUST_LOG (default `info`).
fn init_tracing(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    // A second initialisation (tests running several servers in one process) keeps the first.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// Runs the server; prints `chronicle: listening on http://ADDR` on `out` once it accepts
/// connections.
pub fn serve(args: ServeArgs, out: &mut dyn Write) -> crate::commands::Outcome {
    use crate::commands::CommandError;
    init_tracing(args.log_format);
    let url = crate::commands::import::database_url(args.database_url.clone());
    actix_web::rt::System::new().block_on(async move {
        let store = store::open(&url).await.map_err(|e| CommandError::Store(e.to_string()))?;
        let service = Arc::new(
            Service::new(store, args.cache_games, args.admission()).map_err(|e| CommandError::Server(e.to_string()))?,
        );
        // Listen for other writers first: a game another replica stores while the statistics
        // load is then announced after it, and counted once. The statistics load in the
        // background: the port is bound at once, and statistics queries wait for the load.
        let changes = service.listen_for_changes().await.map_err(|e| CommandError::Store(e.to_string()))?;
        service.load_in_background();
        let follower = changes.map(|changes| actix_web::rt::spawn(Arc::clone(&service).follow_changes(changes)));
        let state = web::Data::new(AppState {
            schema: graphql::schema(Arc::clone(&service), args.limits()),
            service: Arc::clone(&service),
            rate_limit: RateLimit::per_minute(args.rate_limit),
            anonymous_limit: RateLimit::per_minute(args.anonymous_rate_limit),
            body_limit: args.body_limit,
            limits: args.limits(),
            offload: Arc::new(crate::server::offload::Offload::start().map_err(CommandError::Server)?),
            download_idle: std::time::Duration::from_secs(args.download_idle.max(1)),
        });
        let mut server = HttpServer::new(move || {
            App::new()
                .app_data(state.clone())
                .wrap_fn(|req, srv| {
                    let start = Instant::now();
                    let method = req.method().to_string();
                    let path = req.path().to_owned();
                    let call = srv.call(req);
                    async move {
                        let mut res = call.await?;
                        http::secure_headers(res.headers_mut());
                        let route = res.request().match_pattern().unwrap_or_else(|| "unmatched".to_owned());
                        crate::server::metrics::get().request(&route, &method, res.status().as_u16(), start.elapsed());
                        tracing::info!(
                            method,
                            path,
                            status = res.status().as_u16(),
                            micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
                            "request"
                        );
                        Ok(res)
                    }
                })
                .configure(http::routes)
                .configure(crate::server::web::routes)
                .default_service(web::to(crate::server::web::unmatched))
        })
        .shutdown_timeout(args.shutdown_timeout);
        if args.workers > 0 {
            server = server.workers(args.workers);
        }
        let server = server
            .bind((args.host.as_str(), args.port))
            .map_err(|e| CommandError::Server(format!("listening on {}:{}: {e}", args.host, args.port)))?;
        for addr in server.addrs() {
            writeln!(out, "chronicle: listening on http://{addr}")?;
            tracing::info!(%addr, database = service.store().backend(), "listening");
        }
        out.flush()?;
        let result = server.run().await;
        tracing::info!("shutting down");
        // Stop listening while the runtime still runs: the listener hands its connection back
        // to the pool when it is dropped.
        if let Some(follower) = follower {
            follower.abort();
            let _ = follower.await;
        }
        service.store().close().await;
        result.map_err(|e| CommandError::Server(format!("server: {e}")))?;
        tracing::info!("stopped");
        Ok(crate::commands::Done::Success)
    })
}
