//! The Caverna statistics' tallies kept in the store (docs/scaling.md, "Tallies in the store"),
//! on a real SQLite file and a real PostgreSQL database: a service counts what `chronicle
//! import` stored and answers whole-bucket filters from the stored tallies without reading a
//! game's rows, with the answers statistics computed from every game's rows give; a second
//! service finds nothing left to count; two processes counting at once count each game once;
//! rewritten verdicts are counted again.

use chronicle_analytics::{Corpus, FurnishingSet, Stats, StatsFilter};
use chronicle_service::admission::AdmissionLimits;
use chronicle_service::{stats_corpus, tallies, Service};
use chronicle_store::{Backend, Store};
use serde_json::Value;

use crate::common::server::{chronicle, Database};
use crate::common::*;

/// Simulated Caverna games of 1–4 players, dated across three months and partly in a
/// tournament, as `chronicle import` reads them (one log per line).
fn dated_games(count: u64, seed: u64) -> Vec<Value> {
    let engine = chronicle_ingest::games::engine(chronicle_game::GameKind::Caverna);
    let choice = chronicle_game::Simulation { bot: None, variant: None, seats: None };
    (0..count)
        .map(|i| {
            let players = u8::try_from(1 + i % 4).expect("small");
            let mut log = engine.simulate_with(seed * 1_000 + i, players, &choice).expect("a simulated game");
            let month = ["2026-01", "2026-02", "2026-03"][usize::try_from(i % 3).expect("small")];
            log["meta"]["played_at"] = Value::String(format!("{month}-{:02}T18:00:00Z", 1 + i % 27));
            if i % 5 == 0 {
                log["meta"]["tournament"] = Value::String("Winter cup".into());
            }
            log
        })
        .collect()
}

fn import(db: &Database, games: &[Value]) {
    let dir = TempDir::new();
    let file = dir.0.join("games.ndjson");
    let text: Vec<String> = games.iter().map(Value::to_string).collect();
    std::fs::write(&file, text.join("\n")).expect("write the logs");
    let out = chronicle().args(["import", "--database-url", &db.url()]).arg(&file).output().expect("chronicle import");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Statistics over every stored complete game's rows: what the tallies must agree with.
async fn from_rows(store: &Backend) -> Stats {
    let mut corpus = Corpus::new();
    let mut after = 0;
    loop {
        let batch = store.complete_records(after, 500).await.expect("read games");
        let Some(last) = batch.last().map(|g| g.id) else { break };
        for g in &batch {
            stats_corpus::add_game(&mut corpus, g.id, g.uploader.as_deref(), &g.record).expect("a stored game");
        }
        after = last;
    }
    // Polars may not run on the runtime's own thread.
    tokio::task::spawn_blocking(move || Stats::from_corpus(&corpus).expect("statistics from rows"))
        .await
        .expect("a blocking task")
}

/// A runtime whose threads may block (polars runs inside `block_in_place`).
fn threaded() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime")
}

fn filters() -> Vec<StatsFilter> {
    vec![
        StatsFilter::all(),
        StatsFilter::all().player_count(3),
        StatsFilter::all().furnishing_set(FurnishingSet::Full),
        StatsFilter::all().tournament("Winter cup"),
        StatsFilter::all().source("simulate"),
        StatsFilter::all().played_from("2026-02-01"),
        StatsFilter::all().played_from("2026-01-01").played_until("2026-03-01T00:00:00Z"),
    ]
}

fn service(store: Backend) -> Service {
    Service::new(store, 16, AdmissionLimits::for_this_machine()).expect("a service")
}

async fn agree(service: &Service, rows: &Stats) {
    for filter in filters() {
        let asked = filter.clone();
        let stored = service.stats_over(filter, |s, f| s.all(f)).await.expect("an answer from the tallies");
        let expected = tokio::task::block_in_place(|| rows.all(&asked).expect("an answer from rows"));
        assert_eq!(stored, expected, "{asked:?}");
    }
}

fn stored_tallies_answer_as_every_games_rows_do(db: Database) {
    import(&db, &dated_games(24, 1));
    threaded().block_on(async {
        let store = chronicle_store::open(&db.url()).await.expect("open");
        assert!(
            !store.uncounted_games("caverna", 10).await.expect("uncounted").is_empty(),
            "chronicle import leaves the counting to the servers"
        );
        let rows = from_rows(&store).await;
        assert!(rows.player_games() > 40);
        let server = service(store.clone());
        agree(&server, &rows).await;
        assert!(!server.holds_rows(), "whole-bucket filters are answered without reading any game's rows");
        assert!(store.uncounted_games("caverna", 10).await.expect("uncounted").is_empty(), "the service counted");
        let restarted = service(store.clone());
        agree(&restarted, &rows).await;
        assert_eq!(restarted.refresh_tallies().await.expect("nothing to count").games, 0);

        // Games stored without counting, then counted by two processes at once: once each.
        let fresh: Vec<_> = dated_games(12, 2)
            .iter()
            .map(|log| chronicle_ingest::pipeline::prepare(log.to_string().as_bytes(), None))
            .collect();
        store.insert_all(&fresh).await.expect("store games");
        let other = chronicle_store::open(&db.url()).await.expect("a second connection pool");
        let (a, b) = tokio::join!(tallies::catch_up(&store), tallies::catch_up(&other));
        let (a, b) = (a.expect("count"), b.expect("count"));
        let complete = fresh.iter().filter(|g| g.record.status == chronicle_game::Status::Complete).count();
        assert_eq!(a.games + b.games, complete, "{a:?} {b:?}");
        server.refresh_tallies().await.expect("read again");
        let rows = from_rows(&store).await;
        agree(&server, &rows).await;

        // A rewritten verdict (a player's total changed) is counted again from every game.
        let id = store.uncounted_games("caverna", 1).await.expect("none left").first().copied();
        assert_eq!(id, None);
        let first = store.complete_records(0, 1).await.expect("a game").remove(0);
        let mut record = first.record.clone();
        if let Some(score) = record.players.first_mut().and_then(|p| p.score.as_mut()) {
            score.total += 100;
        }
        store.replace_records(&[(first.id, record)]).await.expect("rewrite a verdict");
        let again = tallies::catch_up(&store).await.expect("count again");
        assert!(again.recounted, "{again:?}");
        server.refresh_tallies().await.expect("read again");
        let rows = from_rows(&store).await;
        agree(&server, &rows).await;
        other.close().await;
        store.close().await;
    });
}

#[test]
fn stored_tallies_answer_as_every_games_rows_do_on_sqlite() {
    stored_tallies_answer_as_every_games_rows_do(Database::sqlite());
}

#[test]
fn stored_tallies_answer_as_every_games_rows_do_on_postgres() {
    if postgres_available() {
        stored_tallies_answer_as_every_games_rows_do(Database::Pg(PgScratch::create()));
    }
}

/// A filter that selects games one by one (a player) still reads every game's rows, and then
/// agrees with the tallies on whole-bucket filters.
#[test]
fn a_filter_by_player_reads_the_rows_and_agrees_with_the_tallies() {
    let db = Database::sqlite();
    import(&db, &dated_games(9, 3));
    threaded().block_on(async {
        let store = chronicle_store::open(&db.url()).await.expect("open");
        let server = service(store.clone());
        let one = StatsFilter::all().player("name:random 1");
        let seats = server.stats_over(one, |s, f| s.seats(f)).await.expect("seats of one player's games");
        assert!(seats.by_seat.iter().map(|s| s.win_rate.n).sum::<u64>() > 0);
        assert!(server.holds_rows());
        agree(&server, &from_rows(&store).await).await;
        store.close().await;
    });
}
