//! The statistics' tallies kept in the store (docs/scaling.md, "Tallies in the store"), on a
//! real SQLite file and a real PostgreSQL database: a service counts what `chronicle import`
//! stored and answers Caverna's whole-bucket filters and the outcome reports of Village and
//! Above and Below from the stored tallies without reading a game's rows, with the answers
//! statistics computed from every game's rows give; a second
//! service finds nothing left to count; two processes counting at once count each game once;
//! rewritten verdicts are counted again.

use std::collections::BTreeMap;

use chronicle_analytics::outcomes::{OutcomeCorpus, OutcomeFilter};
use chronicle_analytics::{Corpus, FurnishingSet, Stats, StatsFilter};
use chronicle_game::GameKind;
use chronicle_service::admission::AdmissionLimits;
use chronicle_service::{outcome_corpora, stats_corpus, tallies, Service};
use chronicle_store::{Backend, Store};
use serde_json::Value;

use crate::common::server::{chronicle, Database};
use crate::common::*;

/// Simulated Caverna games of 1–4 players, dated across three months and partly in a
/// tournament, as `chronicle import` reads them (one log per line).
fn dated_games(count: u64, seed: u64) -> Vec<Value> {
    let engine = chronicle_ingest::games::engine(chronicle_game::GameKind::Caverna);
    let choice = chronicle_game::Simulation::default();
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

/// Simulated games of every game with outcome statistics, every size it allows; every third
/// one marked as played at a club (not simulated), so that the reports' default of not mixing
/// simulated and real games is exercised.
fn outcome_games(count: u64, seed: u64) -> Vec<Value> {
    let choice = chronicle_game::Simulation::default();
    let kinds = GameKind::ALL.iter().copied().filter(|&k| outcome_corpora::has_outcomes(k));
    kinds
        .flat_map(|kind| {
            let engine = chronicle_ingest::games::engine(kind);
            let sizes: Vec<u8> = kind.spec().players().collect();
            (0..count).map(move |i| {
                let players = sizes[usize::try_from(i).expect("small") % sizes.len()];
                let mut log = engine.simulate_with(seed * 1_000 + i, players, &choice).expect("a simulated game");
                if i % 3 == 0 {
                    log["meta"]["source"] = Value::String("club".into());
                }
                log
            })
        })
        .collect()
}

fn outcome_filters() -> Vec<OutcomeFilter> {
    let all = OutcomeFilter { include_simulated: true, ..OutcomeFilter::default() };
    vec![
        OutcomeFilter::default(),
        all.clone(),
        OutcomeFilter { min_players: 3, ..all },
        OutcomeFilter { source: Some("simulate".into()), min_sample: 3, ..OutcomeFilter::default() },
    ]
}

/// Outcome statistics over every stored complete game's rows, by game.
async fn outcomes_from_rows(store: &Backend) -> BTreeMap<GameKind, OutcomeCorpus> {
    let mut corpora = BTreeMap::new();
    let mut after = 0;
    loop {
        let batch = store.complete_records(after, 500).await.expect("read games");
        let Some(last) = batch.last().map(|g| g.id) else { break };
        for g in &batch {
            if let Some((kind, game)) = outcome_corpora::outcome(g.id, &g.record).expect("a stored game") {
                let spec = kind.spec();
                let rows: Vec<&str> = spec.score_rows.iter().map(|r| r.id).collect();
                let counters: Vec<&str> = spec.counters.iter().map(|c| c.id).collect();
                corpora.entry(kind).or_insert_with(|| OutcomeCorpus::new(&rows, &counters)).add(&game);
            }
        }
        after = last;
    }
    corpora
}

/// Every outcome report the service gives from the tallies equals the one from rows.
async fn outcomes_agree(service: &Service, rows: &BTreeMap<GameKind, OutcomeCorpus>) {
    assert!(rows.len() >= 2, "both games with outcome statistics are stored");
    for (&kind, corpus) in rows {
        for filter in outcome_filters() {
            let stored = service.outcomes(kind, filter.clone()).await.expect("a report from the tallies");
            assert_eq!(stored, corpus.report(&filter), "{kind} {filter:?}");
            assert!(stored.games > 0 || filter.min_players == 3, "{kind} {filter:?} selects games");
        }
    }
}

fn import(db: &Database, games: &[Value]) {
    import_as(db, games, &[]);
}

/// Imports as stored by the token named `uploader`.
fn import_by(db: &Database, games: &[Value], uploader: &str) {
    import_as(db, games, &["--uploader", uploader]);
}

fn import_as(db: &Database, games: &[Value], args: &[&str]) {
    let dir = TempDir::new();
    let file = dir.0.join("games.ndjson");
    let text: Vec<String> = games.iter().map(Value::to_string).collect();
    std::fs::write(&file, text.join("\n")).expect("write the logs");
    let mut command = chronicle();
    command.args(["import", "--database-url", &db.url()]).args(args).arg(&file);
    let out = command.output().expect("chronicle import");
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
        // Bounds inside months: the cut months' games are read by month, the rest from tallies.
        StatsFilter::all().played_from("2026-02-14"),
        StatsFilter::all().played_from("2026-01-10").played_until("2026-03-05T12:00:00Z"),
        StatsFilter::all().played_until("2026-02-20").player_count(4),
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
    import(&db, &[dated_games(24, 1), outcome_games(9, 1)].concat());
    threaded().block_on(async {
        let store = chronicle_store::open(&db.url()).await.expect("open");
        assert!(
            !store.uncounted_games("caverna", 10).await.expect("uncounted").is_empty(),
            "chronicle import leaves the counting to the servers"
        );
        let rows = from_rows(&store).await;
        assert!(rows.player_games() > 40);
        let outcomes = outcomes_from_rows(&store).await;
        let server = service(store.clone());
        agree(&server, &rows).await;
        outcomes_agree(&server, &outcomes).await;
        assert!(!server.holds_rows(), "whole-bucket filters are answered without reading any game's rows");
        for &kind in GameKind::ALL {
            let left = store.uncounted_games(kind.id(), 10).await.expect("uncounted");
            assert!(left.is_empty(), "the service counted every {kind} game");
        }
        let restarted = service(store.clone());
        agree(&restarted, &rows).await;
        outcomes_agree(&restarted, &outcomes).await;
        assert_eq!(restarted.refresh_tallies().await.expect("nothing to count").games, 0);

        // Games stored without counting, then counted by two processes at once: once each.
        let fresh: Vec<_> = [dated_games(12, 2), outcome_games(4, 2)]
            .concat()
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
        outcomes_agree(&server, &outcomes_from_rows(&store).await).await;

        // A rewritten verdict (a player's total changed) is counted again from every game.
        let id = store.uncounted_games("caverna", 1).await.expect("none left").first().copied();
        assert_eq!(id, None);
        let stored = store.complete_records(0, 1_000).await.expect("games");
        let village = stored.iter().find(|g| g.record.game == Some(GameKind::Village)).expect("a Village game");
        let rewritten: Vec<_> = [&stored[0], village]
            .into_iter()
            .map(|g| {
                let mut record = g.record.clone();
                if let Some(score) = record.players.first_mut().and_then(|p| p.score.as_mut()) {
                    score.total += 100;
                }
                (g.id, record)
            })
            .collect();
        store.replace_records(&rewritten).await.expect("rewrite verdicts");
        let again = tallies::catch_up(&store).await.expect("count again");
        assert!(again.recounted, "{again:?}");
        server.refresh_tallies().await.expect("read again");
        let rows = from_rows(&store).await;
        agree(&server, &rows).await;
        outcomes_agree(&server, &outcomes_from_rows(&store).await).await;
        other.close().await;
        store.close().await;
    });
}

both_stores!(stored_tallies_answer_as_every_games_rows_do, player_and_uploader_filters_read_only_their_games);

/// A filter by players or an uploader reads only the games it selects (found by the identity
/// keys the counting step stored beside the tallies), and answers as every game's rows do.
fn player_and_uploader_filters_read_only_their_games(db: Database) {
    let games = dated_games(15, 3);
    import_by(&db, &games[..10], "club");
    import(&db, &games[10..]);
    threaded().block_on(async {
        let store = chronicle_store::open(&db.url()).await.expect("open");
        let server = service(store.clone());
        let rows = from_rows(&store).await;
        let filters = [
            StatsFilter::all().player("name:random 1"),
            StatsFilter::all().player("name:random 3").player("name:random 4"),
            StatsFilter::all().uploader("club"),
            StatsFilter::all().uploader("club").player("name:random 2").played_from("2026-02-14"),
            StatsFilter::all().player("name:nobody"),
        ];
        for filter in filters {
            let asked = filter.clone();
            let stored = server.stats_over(filter, |s, f| s.all(f)).await.expect("an answer from the selected games");
            let expected = tokio::task::block_in_place(|| rows.all(&asked).expect("an answer from rows"));
            assert_eq!(stored, expected, "{asked:?}");
        }
        let one =
            server.stats_over(StatsFilter::all().player("name:random 1"), |s, f| s.seats(f)).await.expect("seats");
        assert!(one.by_seat.iter().map(|s| s.win_rate.n).sum::<u64>() > 0, "the player's games are counted");
        assert!(!server.holds_rows(), "no query read every game's rows");
        store.close().await;
    });
}
