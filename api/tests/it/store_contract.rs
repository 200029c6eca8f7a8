//! The store contract: one suite, run against both stores (`sqlite::*` and `postgres::*` per
//! test). Every test gets its own database: an SQLite file in a fresh directory, or a PostgreSQL
//! database with a random name created on the server at `CHRONICLE_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/test`) and dropped afterwards.
//!
//! When PostgreSQL is unreachable the PostgreSQL half is skipped with a message on standard
//! error, unless `CI` is set: then it fails.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use chronicle_caverna::events::{Event, Via};
use chronicle_caverna::Status;
use chronicle_ingest::canonical::identify;
use chronicle_ingest::games::record_of;
use chronicle_ingest::inputs::LogInput;
use chronicle_ingest::pipeline::{import, prepare, reverify, ImportSummary, Silent};
use chronicle_store::record::GameRecord;
use chronicle_store::{
    AnalysisKey, AnalysisRow, Bearer, CompressedLog, GameFilter, GameHead, Inserted, NewGame, PgStore, SqliteStore,
    Store, StoreError, TournamentRow,
};

use crate::common::*;

// ---------------------------------------------------------------------------------------------
// Harness

/// What the tests need beyond the `Store` interface: plain SQL (to tamper, to count) and the
/// URL the `chronicle` binary is given.
trait TestStore: Store {
    fn url(&self) -> &str;
    async fn exec(&self, sql: &str);
    async fn count(&self, sql: &str) -> i64;
}

struct Pg {
    store: PgStore,
    url: String,
}

struct Lite {
    store: SqliteStore,
    url: String,
}

macro_rules! delegate_store {
    ($t:ty) => {
        impl Store for $t {
            fn backend(&self) -> &'static str {
                self.store.backend()
            }
            async fn insert_games(&self, games: &[NewGame]) -> Result<Vec<Inserted>, chronicle_store::StoreError> {
                self.store.insert_games(games).await
            }
            async fn known_games(
                &self,
                sha256s: &[String],
            ) -> Result<std::collections::HashMap<String, i64>, chronicle_store::StoreError> {
                self.store.known_games(sha256s).await
            }
            async fn logs_after(
                &self,
                after: i64,
                limit: i64,
            ) -> Result<Vec<chronicle_store::StoredLog>, chronicle_store::StoreError> {
                self.store.logs_after(after, limit).await
            }
            async fn outcomes(
                &self,
                ids: &[i64],
            ) -> Result<BTreeMap<i64, chronicle_store::record::Outcome>, chronicle_store::StoreError> {
                self.store.outcomes(ids).await
            }
            async fn replace_records(&self, records: &[(i64, GameRecord)]) -> Result<(), chronicle_store::StoreError> {
                self.store.replace_records(records).await
            }
            async fn game_id(&self, sha256: &str) -> Result<Option<i64>, chronicle_store::StoreError> {
                self.store.game_id(sha256).await
            }
            async fn game(&self, id: i64) -> Result<Option<chronicle_store::StoredGame>, chronicle_store::StoreError> {
                self.store.game(id).await
            }
            async fn game_count(&self) -> Result<i64, chronicle_store::StoreError> {
                self.store.game_count().await
            }
            async fn game_heads(&self, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
                self.store.game_heads(ids).await
            }
            async fn games_with_facts(&self, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
                self.store.games_with_facts(ids).await
            }
            async fn game_log(&self, id: i64) -> Result<Option<CompressedLog>, StoreError> {
                self.store.game_log(id).await
            }
            async fn list_games(&self, filter: &GameFilter, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
                self.store.list_games(filter, after, limit).await
            }
            async fn insert_all(&self, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
                self.store.insert_all(games).await
            }
            async fn create_token(&self, name: &str, sha256: &str, expires_in: Option<i64>) -> Result<i64, StoreError> {
                self.store.create_token(name, sha256, expires_in).await
            }
            async fn tokens(&self) -> Result<Vec<chronicle_store::TokenRow>, StoreError> {
                self.store.tokens().await
            }
            async fn revoke_token(&self, id: i64) -> Result<chronicle_store::Revoked, StoreError> {
                self.store.revoke_token(id).await
            }
            async fn bearer(&self, sha256: &str) -> Result<chronicle_store::TokenLookup, StoreError> {
                self.store.bearer(sha256).await
            }
            async fn probe_write(&self) -> Result<(), StoreError> {
                self.store.probe_write().await
            }
            async fn create_tournament(
                &self,
                name: &str,
                organizer_sha256: &str,
                created_by: Option<i64>,
            ) -> Result<TournamentRow, StoreError> {
                self.store.create_tournament(name, organizer_sha256, created_by).await
            }
            async fn change_tournament(
                &self,
                tournament: i64,
                change: &chronicle_store::TournamentChange,
            ) -> Result<chronicle_store::Changed, StoreError> {
                self.store.change_tournament(tournament, change).await
            }
            async fn tournaments(&self, after: i64, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
                self.store.tournaments(after, limit).await
            }
            async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
                self.store.tournament(id).await
            }
            async fn add_tournament_games(&self, tournament: i64, games: &[i64]) -> Result<Vec<i64>, StoreError> {
                self.store.add_tournament_games(tournament, games).await
            }
            async fn tournament_games(&self, tournament: i64) -> Result<Vec<i64>, StoreError> {
                self.store.tournament_games(tournament).await
            }
            async fn game_tournaments(&self, game: i64) -> Result<Vec<TournamentRow>, StoreError> {
                self.store.game_tournaments(game).await
            }
            async fn replaced_games(&self, tournament: i64) -> Result<Vec<i64>, StoreError> {
                self.store.replaced_games(tournament).await
            }
            async fn complete_records(&self, after: i64, limit: i64) -> Result<Vec<GameHead>, StoreError> {
                self.store.complete_records(after, limit).await
            }
            async fn player_aliases(&self) -> Result<Vec<(String, String)>, StoreError> {
                self.store.player_aliases().await
            }
            async fn merge_players(&self, into: &str, aliases: &[String]) -> Result<String, StoreError> {
                self.store.merge_players(into, aliases).await
            }
            async fn unmerge_player(&self, alias: &str) -> Result<bool, StoreError> {
                self.store.unmerge_player(alias).await
            }
            async fn ping(&self) -> Result<(), StoreError> {
                self.store.ping().await
            }
            async fn tally_state(&self) -> Result<chronicle_store::TallyState, StoreError> {
                self.store.tally_state().await
            }
            async fn uncounted_games(&self, game: &str, limit: i64) -> Result<Vec<i64>, StoreError> {
                self.store.uncounted_games(game, limit).await
            }
            async fn add_tallies(
                &self,
                expect: &chronicle_store::TallyState,
                counting: &chronicle_store::Counting,
                merge: &(dyn Fn(&str, &str, &str) -> Result<String, String> + Sync),
            ) -> Result<bool, StoreError> {
                self.store.add_tallies(expect, counting, merge).await
            }
            async fn replace_tallies(
                &self,
                expect: &chronicle_store::TallyState,
                format: i64,
                counting: &chronicle_store::Counting,
            ) -> Result<bool, StoreError> {
                self.store.replace_tallies(expect, format, counting).await
            }
            async fn counted_games_of(
                &self,
                players: &[String],
                uploader: Option<&str>,
                limit: i64,
            ) -> Result<Vec<i64>, StoreError> {
                self.store.counted_games_of(players, uploader, limit).await
            }
            async fn counted_games_in_months(&self, months: &[i64], limit: i64) -> Result<Vec<i64>, StoreError> {
                self.store.counted_games_in_months(months, limit).await
            }
            async fn tallies_after(&self, after: i64) -> Result<chronicle_store::TallyRows, StoreError> {
                self.store.tallies_after(after).await
            }
            async fn corpus_version(&self, game: &str) -> Result<i64, StoreError> {
                self.store.corpus_version(game).await
            }
            async fn counting_version(&self) -> Result<i64, StoreError> {
                self.store.counting_version().await
            }
            async fn counted_games(&self, game: &str, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
                self.store.counted_games(game, after, limit).await
            }
            async fn stored_model(&self, game: &str) -> Result<Option<chronicle_store::StoredModel>, StoreError> {
                self.store.stored_model(game).await
            }
            async fn replace_model(
                &self,
                model: &chronicle_store::StoredModel,
                seats: &[chronicle_store::SeatRatingRow],
                players: &[chronicle_store::PlayerRatingRow],
            ) -> Result<bool, StoreError> {
                self.store.replace_model(model, seats, players).await
            }
            async fn rating_table(
                &self,
                game: &str,
                offset: i64,
                limit: i64,
            ) -> Result<Vec<chronicle_store::PlayerRatingRow>, StoreError> {
                self.store.rating_table(game, offset, limit).await
            }
            async fn rated_players(&self, game: &str) -> Result<i64, StoreError> {
                self.store.rated_players(game).await
            }

            async fn analysis(&self, key: &AnalysisKey) -> Result<Option<AnalysisRow>, StoreError> {
                self.store.analysis(key).await
            }

            async fn request_analysis(&self, key: &AnalysisKey, now: i64) -> Result<AnalysisRow, StoreError> {
                self.store.request_analysis(key, now).await
            }

            async fn pending_analyses(&self) -> Result<i64, StoreError> {
                self.store.pending_analyses().await
            }

            async fn claim_analysis(&self, now: i64, stale_before: i64) -> Result<Option<AnalysisRow>, StoreError> {
                self.store.claim_analysis(now, stale_before).await
            }

            async fn analysis_progress(
                &self,
                key: &AnalysisKey,
                done: i64,
                total: i64,
                now: i64,
            ) -> Result<(), StoreError> {
                self.store.analysis_progress(key, done, total, now).await
            }

            async fn finish_analysis(
                &self,
                key: &AnalysisKey,
                outcome: Result<&str, &str>,
                now: i64,
            ) -> Result<(), StoreError> {
                self.store.finish_analysis(key, outcome, now).await
            }
            async fn player_rating(
                &self,
                game: &str,
                player: &str,
            ) -> Result<Option<chronicle_store::PlayerRatingRow>, StoreError> {
                self.store.player_rating(game, player).await
            }
            async fn rating_history(
                &self,
                game: &str,
                player: &str,
                limit: i64,
            ) -> Result<Vec<chronicle_store::SeatRatingRow>, StoreError> {
                self.store.rating_history(game, player, limit).await
            }
            async fn seat_ratings(&self, game_id: i64) -> Result<Vec<chronicle_store::SeatRatingRow>, StoreError> {
                self.store.seat_ratings(game_id).await
            }
            async fn changes_after(
                &self,
                after: i64,
                limit: i64,
            ) -> Result<chronicle_store::changes::ChangeLog, StoreError> {
                self.store.changes_after(after, limit).await
            }
        }
    };
}

delegate_store!(Pg);
delegate_store!(Lite);

impl TestStore for Pg {
    fn url(&self) -> &str {
        &self.url
    }
    async fn exec(&self, sql: &str) {
        sqlx::raw_sql(sql).execute(self.store.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(self.store.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
    }
}

impl TestStore for Lite {
    fn url(&self) -> &str {
        &self.url
    }
    async fn exec(&self, sql: &str) {
        sqlx::raw_sql(sql).execute(self.store.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(self.store.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
    }
}

/// Runs one contract check against both stores: `name::sqlite` and `name::postgres`.
macro_rules! contract {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn sqlite() {
                let dir = super::TempDir::new();
                let path = dir.0.join("sub/dir/chronicle.db");
                let url = format!("sqlite://{}", path.display());
                super::runtime().block_on(async {
                    let store = chronicle_store::SqliteStore::open(&path).await.expect("open SQLite store");
                    let s = super::Lite { store, url };
                    super::$name(&s).await;
                    s.store.close().await;
                });
            }

            #[test]
            fn postgres() {
                if !super::postgres_available() {
                    return;
                }
                let db = super::PgScratch::create();
                let url = db.url.clone();
                super::runtime().block_on(async {
                    let store = chronicle_store::PgStore::open(&url).await.expect("open PostgreSQL store");
                    let s = super::Pg { store, url };
                    super::$name(&s).await;
                    s.store.close().await;
                });
                drop(db);
            }
        }
    )*};
}

// ---------------------------------------------------------------------------------------------
// Fixtures

/// Every golden log (not the `.expect.json` sidecars), by name.
fn fixture_logs() -> Vec<LogInput> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".json") && !name.ends_with(".expect.json")
        })
        .collect();
    paths.sort();
    assert!(paths.len() > 40, "golden fixtures missing from {}", fixtures_dir().display());
    paths
        .into_iter()
        .map(|p| LogInput { name: p.display().to_string(), bytes: std::fs::read(&p).expect("read fixture") })
        .collect()
}

fn input(name: &str, bytes: impl Into<Vec<u8>>) -> LogInput {
    LogInput { name: name.into(), bytes: bytes.into() }
}

fn quiet() -> Silent {
    Silent
}

/// Number of distinct dedupe keys among the inputs.
fn distinct(inputs: &[LogInput]) -> usize {
    inputs.iter().map(|i| identify(&i.bytes).sha256).collect::<std::collections::BTreeSet<_>>().len()
}

const TABLES: [&str; 4] = ["games", "game_logs", "game_players", "game_facts"];

async fn row_counts<S: TestStore>(s: &S) -> Vec<i64> {
    let mut counts = Vec::new();
    for t in TABLES {
        counts.push(s.count(&format!("SELECT COUNT(*) FROM {t}")).await);
    }
    counts
}

/// Every stored game read back equals what the engine's replay of its log derives.
async fn assert_stored_matches_replay<S: TestStore>(s: &S) {
    let n = s.game_count().await.expect("count");
    let mut checked = 0;
    let mut after = 0;
    loop {
        let logs = s.logs_after(after, 100).await.expect("logs");
        let Some(last) = logs.last() else { break };
        after = last.id;
        for l in &logs {
            let stored = s.game(l.id).await.expect("read game").expect("game exists");
            let bytes = stored.log.decompress().expect("log decompresses");
            assert_eq!(stored.sha256, identify(&bytes).sha256, "game {}: dedupe key", l.id);
            let derived = record_of(&bytes, stored.format.as_deref());
            assert_eq!(stored.record, derived, "game {}: stored record differs from the replay", l.id);
            checked += 1;
        }
    }
    assert_eq!(checked, n);
}

// ---------------------------------------------------------------------------------------------
// The contract

contract!(
    import_stores_every_game_once,
    reimport_is_a_duplicate_and_changes_nothing,
    invalid_games_are_kept_with_their_error,
    facts_match_the_engine_events,
    reverify_corrects_and_reports_tampering,
    a_failing_game_does_not_keep_its_batch_out,
    insert_all_stores_the_whole_batch_or_nothing,
    tokens_expire_and_are_revoked,
    kill_mid_import_leaves_only_whole_games,
    cli_import_and_reverify,
    counters_round_trip_and_reverify_restores_them,
);

async fn import_stores_every_game_once<S: TestStore>(s: &S) {
    let logs = fixture_logs();
    let total = logs.len();
    let unique = distinct(&logs);
    let invalid_unique: std::collections::BTreeSet<String> = logs
        .iter()
        .filter(|l| chronicle_caverna::replay(&l.bytes).status == Status::Invalid)
        .map(|l| identify(&l.bytes).sha256)
        .collect();
    let report = import(s, logs, Some("contract".into()), 7, &quiet()).await.expect("import");
    let sum = report.summary;
    assert_eq!(sum.imported + sum.invalid, unique, "{sum:?}");
    assert_eq!(sum.invalid, invalid_unique.len(), "{sum:?}");
    assert_eq!(sum.duplicates, total - unique, "{sum:?}");
    assert_eq!(sum.failed, 0, "{:?}", report.failures);
    assert_eq!(s.game_count().await.unwrap(), unique as i64);
    assert!(report.ids.iter().all(Option::is_some));
    assert_stored_matches_replay(s).await;
    // Provenance.
    let id = report.ids[0].unwrap_or_default();
    let g = s.game(id).await.unwrap().unwrap();
    assert_eq!(g.uploader.as_deref(), Some("contract"));
    assert!(g.uploaded_at.starts_with("20") && g.uploaded_at.ends_with('Z'), "{}", g.uploaded_at);
    let complete = s.game_id(&identify(&fixture("complete_5p.json").bytes).sha256).await.unwrap().unwrap();
    let g = s.game(complete).await.unwrap().unwrap();
    assert_eq!(g.format.as_deref(), Some("caverna-log/1"));
    assert_eq!(g.record.status, Status::Complete);
    assert_eq!(g.record.player_count, Some(5));
    assert_eq!(g.record.meta.tournament.as_deref(), Some("Dwarf Con 2025"));
    assert_eq!(g.log.decompress().unwrap(), fixture("complete_5p.json").bytes);
    assert!((g.log.data.len() as i64) < g.log.size, "the log is stored compressed");
}

async fn reimport_is_a_duplicate_and_changes_nothing<S: TestStore>(s: &S) {
    let log = fixture("complete_4p.json");
    let first = import(s, vec![input("a", log.bytes.clone())], None, 10, &quiet()).await.unwrap();
    assert_eq!(first.summary, ImportSummary { imported: 1, ..Default::default() });
    let before = row_counts(s).await;
    let uploaded = s.game(first.ids[0].unwrap()).await.unwrap().unwrap();

    // The same bytes, the same JSON reformatted with other key order, and twice in one batch.
    let mut v: Value = serde_json::from_slice(&log.bytes).unwrap();
    let reordered = {
        let obj = v.as_object_mut().unwrap();
        let mut keys: Vec<String> = obj.keys().cloned().collect();
        keys.reverse();
        let mut out = serde_json::Map::new();
        for k in keys {
            out.insert(k.clone(), obj[&k].clone());
        }
        serde_json::to_vec_pretty(&Value::Object(out)).unwrap()
    };
    assert_ne!(reordered, log.bytes);
    let again = vec![input("b", log.bytes.clone()), input("c", reordered.clone()), input("d", reordered)];
    let second = import(s, again, Some("someone else".into()), 10, &quiet()).await.unwrap();
    assert_eq!(second.summary, ImportSummary { duplicates: 3, ..Default::default() });
    assert_eq!(second.ids, vec![first.ids[0]; 3]);
    assert_eq!(row_counts(s).await, before, "a duplicate changed the database");
    assert_eq!(s.game(first.ids[0].unwrap()).await.unwrap().unwrap(), uploaded, "a duplicate changed the game");

    // Twice in one fresh batch: stored once.
    let other = variant(&log.bytes, "twice");
    let third = import(s, vec![input("e", other.clone()), input("f", other)], None, 10, &quiet()).await.unwrap();
    assert_eq!(third.summary, ImportSummary { imported: 1, duplicates: 1, ..Default::default() });
    assert_eq!(third.ids[0], third.ids[1]);
    assert_eq!(s.game_count().await.unwrap(), 2);

    // In two consecutive batches (the second is looked up while the first is being written):
    // stored once, the second copy a duplicate of the first.
    let other = variant(&log.bytes, "consecutive");
    let batches = vec![input("g", other.clone()), input("h", other.clone()), input("i", other)];
    let fourth = import(s, batches, None, 1, &quiet()).await.unwrap();
    assert_eq!(fourth.summary, ImportSummary { imported: 1, duplicates: 2, ..Default::default() });
    assert_eq!(fourth.ids, vec![fourth.ids[0]; 3]);
    assert_eq!(s.game_count().await.unwrap(), 3);
}

async fn invalid_games_are_kept_with_their_error<S: TestStore>(s: &S) {
    let mut logs: Vec<LogInput> = fixture_logs().into_iter().filter(|l| l.name.contains("/invalid_")).collect();
    logs.push(input("not-json", "this is not a log"));
    logs.push(input("empty", ""));
    logs.push(input("wrong-format", r#"{"format": "caverna-log/9", "setup": {}, "entries": []}"#));
    logs.push(input(
        "nul-in-name",
        r#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A\u0000B"}], "seed": 1},
           "entries": [{"type": "place", "player": 3, "space": "supplies"}]}"#,
    ));
    let expected: Vec<_> = logs.iter().map(|l| record_of(&l.bytes, identify(&l.bytes).format.as_deref())).collect();
    assert!(expected.iter().all(|r| r.status == Status::Invalid));
    let n = distinct(&logs);
    let report = import(s, logs, None, 5, &quiet()).await.unwrap();
    assert_eq!(report.summary.invalid, n, "{:?}", report.summary);
    assert_eq!(report.summary.imported + report.summary.failed, 0, "{:?}", report.failures);
    for (r, id) in expected.iter().zip(&report.ids) {
        let g = s.game(id.unwrap()).await.unwrap().unwrap();
        let e = r.error.as_ref().unwrap();
        let stored = g.record.error.as_ref().expect("stored with its error");
        assert_eq!(g.record.status, Status::Invalid);
        assert_eq!(stored, e, "the error as the engine (or the envelope check) gave it, NULs cleaned");
        assert!(!stored.message.contains('\0'));
        assert!(g.record.players.iter().all(|p| p.score.is_none() && p.rank.is_none() && !p.winner));
    }
    let not_json = s.game_id(&identify(b"this is not a log").sha256).await.unwrap().unwrap();
    let g = s.game(not_json).await.unwrap().unwrap();
    assert_eq!(g.record.error.unwrap().code, "malformed_json");
    assert_eq!(g.log.decompress().unwrap(), b"this is not a log");
    assert_eq!(g.format, None);
    assert_eq!(
        s.count("SELECT COUNT(*) FROM games WHERE status = 'invalid' AND error_code IS NOT NULL").await,
        n as i64
    );
    let nul = s.count("SELECT COUNT(*) FROM game_players WHERE name = 'A\u{FFFD}B'").await;
    assert_eq!(nul, 1, "the NUL character is stored as U+FFFD");
    // An invalid game keeps the facts of its legal entries.
    let twin = fixture("invalid_loot_strength.json");
    let r = chronicle_caverna::replay(&twin.bytes);
    let id = s.game_id(&identify(&twin.bytes).sha256).await.unwrap().unwrap();
    let g = s.game(id).await.unwrap().unwrap();
    let placed = r.game.as_ref().unwrap().events().iter().filter(|e| matches!(e, Event::Placed { .. })).count();
    assert_eq!(g.record.caverna().placements.len(), placed);
    assert!(placed > 0);
}

/// The stored facts against the engine's own events (not through `facts.rs`).
async fn facts_match_the_engine_events<S: TestStore>(s: &S) {
    let names = [
        "complete_2p.json",
        "complete_3p.json",
        "complete_4p.json",
        "complete_5p.json",
        "complete_7p.json",
        "complete_solo.json",
    ];
    let logs: Vec<LogInput> = names.iter().map(|n| fixture(n)).collect();
    let report = import(s, logs.clone(), None, 2, &quiet()).await.unwrap();
    assert_eq!(report.summary.imported, names.len());
    let mut seen = [0usize; 4];
    for (log, id) in logs.iter().zip(&report.ids) {
        let r = chronicle_caverna::replay(&log.bytes);
        assert_eq!(r.status, Status::Complete, "{}", log.name);
        let game = r.game.as_ref().unwrap();
        let stored = s.game(id.unwrap()).await.unwrap().unwrap().record;
        let (mut placements, mut furnishings, mut expeditions) = (
            stored.caverna().placements.iter(),
            stored.caverna().furnishings.iter(),
            stored.caverna().expeditions.iter(),
        );
        let mut forged: BTreeMap<(usize, usize), (u8, u8)> = BTreeMap::new();
        for event in game.events() {
            match event {
                Event::Placed { player, round, space, dwarf, imitated } => {
                    let row = placements.next().expect("a placement row per Placed event");
                    assert_eq!((row.player as usize, row.round as u8, row.dwarf as usize), (*player, *round, *dwarf));
                    assert_eq!(row.space, space.id());
                    assert_eq!(row.imitated.as_deref(), imitated.map(|s| s.id()));
                    seen[0] += 1;
                }
                Event::Furnished { player, round, tile, at, via } => {
                    let row = furnishings.next().expect("a furnishing row per Furnished event");
                    assert_eq!((row.player as usize, row.round as u8, row.tile.as_str()), (*player, *round, tile.id()));
                    assert_eq!((row.row as i8, row.col as i8), (at.row, at.col));
                    match via {
                        Via::Space(space) => {
                            assert_eq!((row.via.as_str(), row.space.as_deref()), ("space", Some(space.id())))
                        }
                        Via::Loot => assert_eq!((row.via.as_str(), row.space.as_deref()), ("loot", None)),
                    }
                    seen[1] += 1;
                }
                Event::Forged { player, round, dwarf, strength } => {
                    forged.entry((*player, *dwarf)).or_insert((*round, *strength));
                }
                Event::Expedition { player, round, dwarf, level, strength, loot } => {
                    let row = expeditions.next().expect("an expedition row per Expedition event");
                    assert_eq!(
                        (
                            row.player as usize,
                            row.round as u8,
                            row.dwarf as usize,
                            row.level as usize,
                            row.strength as u8
                        ),
                        (*player, *round, *dwarf, *level, *strength)
                    );
                    let items: Vec<String> =
                        loot.iter().map(|l| serde_json::to_value(l).unwrap().as_str().unwrap().to_owned()).collect();
                    assert_eq!(row.loot, items);
                    seen[2] += 1;
                }
            }
        }
        assert!(placements.next().is_none() && furnishings.next().is_none() && expeditions.next().is_none());
        // Weapons: every armed dwarf, with its forging and final strength.
        let armed: Vec<(usize, usize, u8)> = game
            .players()
            .iter()
            .enumerate()
            .flat_map(|(p, pl)| pl.dwarfs.iter().enumerate().filter_map(move |(d, dw)| dw.weapon.map(|w| (p, d, w))))
            .collect();
        assert_eq!(stored.caverna().weapons.len(), armed.len(), "{}", log.name);
        for (w, (p, d, strength)) in stored.caverna().weapons.iter().zip(&armed) {
            assert_eq!((w.player as usize, w.dwarf as usize, w.final_strength), (*p, *d, Some(i16::from(*strength))));
            let (round, first) = forged[&(*p, *d)];
            assert_eq!((w.round_forged, w.strength_forged), (Some(i16::from(round)), Some(i16::from(first))));
            let trips = game
                .events()
                .iter()
                .filter(|e| matches!(e, Event::Expedition { player, dwarf, .. } if (*player, *dwarf) == (*p, *d)))
                .count();
            assert_eq!(w.expeditions as usize, trips);
            seen[3] += 1;
        }
        // Players: score rows, rank and winners as the replay says.
        let scores = r.scores.as_ref().unwrap();
        for (p, row) in stored.players.iter().enumerate() {
            assert_eq!(row.name, scores[p].name);
            assert_eq!(row.score, Some(scores[p].score.score()));
            assert_eq!(row.winner, r.winners.contains(&p));
            let better = scores.iter().filter(|o| o.score.total > scores[p].score.total).count();
            assert_eq!(row.rank, Some(better as i16 + 1));
        }
    }
    // The golden games exercise every kind of fact.
    assert!(seen.iter().all(|&n| n > 0), "placements, furnishings, expeditions, weapons seen: {seen:?}");
    let five = s.game_id(&identify(&fixture("complete_5p.json").bytes).sha256).await.unwrap().unwrap();
    assert_eq!(s.count(&format!("SELECT COUNT(*) FROM game_players WHERE game_id = {five}")).await, 5);
}

async fn reverify_corrects_and_reports_tampering<S: TestStore>(s: &S) {
    let logs: Vec<LogInput> =
        ["complete_3p.json", "complete_5p.json", "invalid_space_occupied.json", "valid_space_occupied.json"]
            .iter()
            .map(|n| fixture(n))
            .collect();
    let report = import(s, logs, None, 10, &quiet()).await.unwrap();
    let ids: Vec<i64> = report.ids.iter().map(|i| i.unwrap()).collect();
    let clean = reverify(s, 3, &quiet()).await.unwrap();
    assert_eq!((clean.reverified, clean.changes.len(), clean.failures.len()), (4, 0, 0));

    // Tamper: a status, a score (its total and its sheet: one row left, `grain` at 99), an error
    // code, and some facts (every placement of one game; the other's weapons and loot).
    let (three, five, invalid, valid) = (ids[0], ids[1], ids[2], ids[3]);
    s.exec(&format!("UPDATE games SET status = 'incomplete', engine_version = '0.0.0' WHERE id = {three}")).await;
    s.exec(&format!(
        r#"UPDATE game_players SET total = total + 100, sheet = '{{"v":1,"r":[["grain",99]]}}' WHERE game_id = {five} AND seat = 1"#
    ))
    .await;
    s.exec(&format!("UPDATE games SET error_code = 'space_taken' WHERE id = {invalid}")).await;
    s.exec(&format!(r#"UPDATE game_facts SET facts = '{{"v":1}}' WHERE game_id = {valid}"#)).await;
    s.exec(&format!(r#"UPDATE game_facts SET facts = '{{"v":1,"w":[[0,0,null,null,1,0]]}}' WHERE game_id = {five}"#))
        .await;

    let fixed = reverify(s, 3, &quiet()).await.unwrap();
    assert_eq!(fixed.reverified, 4);
    let mut changed: Vec<i64> = fixed.changes.iter().map(|c| c.game).collect();
    changed.sort();
    let mut expected = vec![three, five, invalid];
    expected.sort();
    assert_eq!(changed, expected, "facts alone are not an outcome change");
    let change = |id: i64| fixed.changes.iter().find(|c| c.game == id).unwrap();
    let c3 = change(three);
    assert_eq!((c3.before.status.as_str(), c3.after.status.as_str()), ("incomplete", "complete"));
    assert_eq!(c3.before.scores, c3.after.scores);
    let c5 = change(five);
    let (before, after) = (c5.before.scores[1].clone().unwrap(), c5.after.scores[1].clone().unwrap());
    assert_eq!(before.total, after.total + 100);
    assert_eq!(before.row("grain"), Some(99));
    assert_eq!(c5.before.scores[0], c5.after.scores[0]);
    let ci = change(invalid);
    assert_eq!(
        (ci.before.error_code.as_deref(), ci.after.error_code.as_deref()),
        (Some("space_taken"), Some("space_occupied"))
    );
    // Everything is as the replay says again, facts included.
    assert_stored_matches_replay(s).await;
    let again = reverify(s, 100, &quiet()).await.unwrap();
    assert!(again.changes.is_empty());
}

/// Simulated Village and Above and Below games: their per-player counters are stored (in each
/// player's sheet, `game_players.sheet`), read back equal to the replay's (single game and `complete_records`),
/// and rewritten by reverify after they are tampered with or lost.
async fn counters_round_trip_and_reverify_restores_them<S: TestStore>(s: &S) {
    use chronicle_game::GameKind;
    let logs: Vec<LogInput> = [(GameKind::Village, 3), (GameKind::Village, 1), (GameKind::AboveAndBelow, 2)]
        .iter()
        .enumerate()
        .map(|(i, &(kind, players))| {
            let log = chronicle_ingest::games::simulate(kind, 40 + i as u64, players).expect("simulated");
            input(&format!("{kind}-{i}.json"), serde_json::to_vec(&log).expect("JSON"))
        })
        .collect();
    let report = import(s, logs, None, 10, &quiet()).await.unwrap();
    let ids: Vec<i64> = report.ids.iter().map(|i| i.unwrap()).collect();
    let counters: usize =
        [3 * GameKind::Village.spec().counters.len(), GameKind::Village.spec().counters.len()].iter().sum::<usize>()
            + 2 * GameKind::AboveAndBelow.spec().counters.len();
    assert_eq!(stored_counters(s).await, counters);
    assert_stored_matches_replay(s).await;
    let records = s.complete_records(0, 100).await.unwrap();
    assert_eq!(records.len(), 3);
    for head in &records {
        let stored = s.game(head.id).await.unwrap().unwrap();
        assert_eq!(head.record, stored.record, "complete_records and game agree");
        assert!(head
            .record
            .players
            .iter()
            .all(|p| p.counters.len() == head.record.game.unwrap().spec().counters.len()));
    }

    // One game's counters seven too high, another's lost; the score rows left as they are.
    for head in &records {
        let mut player = s.game(head.id).await.unwrap().unwrap().record.players[0].clone();
        let lost = head.id == ids[2];
        for c in &mut player.counters {
            c.value += 7;
        }
        if lost {
            player.counters.clear();
        }
        let rows: Vec<Value> =
            player.score.iter().flat_map(|s| &s.rows).map(|r| serde_json::json!([r.id, r.points])).collect();
        let counters: Vec<Value> = player.counters.iter().map(|c| serde_json::json!([c.id, c.value])).collect();
        let sheet = serde_json::json!({ "v": 1, "r": rows, "c": counters }).to_string();
        s.exec(&format!("UPDATE game_players SET sheet = '{sheet}' WHERE game_id = {} AND seat = 0", head.id)).await;
    }
    assert_ne!(stored_counters(s).await, counters);
    let fixed = reverify(s, 2, &quiet()).await.unwrap();
    assert_eq!((fixed.reverified, fixed.changes.len()), (3, 0), "counters are facts, not the outcome");
    assert_eq!(stored_counters(s).await, counters);
    assert_stored_matches_replay(s).await;
}

/// The counters of every stored player, as read back.
async fn stored_counters<S: TestStore>(s: &S) -> usize {
    let mut n = 0;
    for head in s.complete_records(0, 100).await.unwrap() {
        n += head.record.players.iter().map(|p| p.counters.len()).sum::<usize>();
    }
    n
}

async fn a_failing_game_does_not_keep_its_batch_out<S: TestStore>(s: &S) {
    let good = prepare(&fixture("complete_2p.json").bytes, None);
    let other = prepare(&variant(&fixture("complete_2p.json").bytes, "other"), None);
    // A key the schema refuses: this game cannot be stored.
    let mut bad = prepare(&variant(&fixture("complete_3p.json").bytes, "bad"), None);
    bad.sha256 = "not a sha-256".into();
    let results = s.insert_games(&[good.clone(), bad, other]).await.expect("no fatal error");
    assert!(matches!(results[0], Inserted::New(_)), "{results:?}");
    assert!(matches!(results[1], Inserted::Failed(ref why) if !why.is_empty()), "{results:?}");
    assert!(matches!(results[2], Inserted::New(_)), "{results:?}");
    assert_eq!(s.game_count().await.unwrap(), 2);
    // The failed game left nothing behind.
    assert_eq!(s.count("SELECT COUNT(*) FROM game_players").await, 4);
    assert_eq!(s.count("SELECT COUNT(*) FROM game_logs").await, 2);
}

/// `Store::insert_all` (the service's submissions): a game the database refuses keeps the
/// whole batch out, and the connection goes on working; the valid twin batch is stored whole.
async fn insert_all_stores_the_whole_batch_or_nothing<S: TestStore>(s: &S) {
    let good = prepare(&fixture("complete_2p.json").bytes, None);
    let other = prepare(&variant(&fixture("complete_2p.json").bytes, "other"), None);
    let mut bad = prepare(&variant(&fixture("complete_3p.json").bytes, "bad"), None);
    bad.sha256 = "not a sha-256".into();
    for _ in 0..6 {
        // More attempts than the pool has connections: none is left unusable.
        let refused = s.insert_all(&[good.clone(), bad.clone(), other.clone()]).await;
        assert!(refused.is_err(), "{refused:?}");
        assert_eq!(s.game_count().await.unwrap(), 0);
    }
    assert_eq!(s.count("SELECT COUNT(*) FROM game_players").await, 0);
    let twin = prepare(&variant(&fixture("complete_3p.json").bytes, "bad"), None);
    let stored = s.insert_all(&[good.clone(), twin, other.clone(), good]).await.expect("stored");
    assert!(
        matches!(stored[..], [Inserted::New(a), Inserted::New(_), Inserted::New(_), Inserted::Duplicate(d)] if a == d)
    );
    assert_eq!(s.game_count().await.unwrap(), 3);
}

/// API tokens: valid until they expire or are revoked; revoking keeps the row.
async fn tokens_expire_and_are_revoked<S: TestStore>(s: &S) {
    use chronicle_store::{Revoked, TokenLookup};
    let hash = |c: char| c.to_string().repeat(64);
    let forever = s.create_token("forever", &hash('a'), None).await.unwrap();
    let short = s.create_token("short", &hash('b'), Some(1)).await.unwrap();
    assert!(matches!(s.bearer(&hash('a')).await.unwrap(), TokenLookup::Valid(Bearer::Api { id, .. }) if id == forever));
    assert!(matches!(s.bearer(&hash('b')).await.unwrap(), TokenLookup::Valid(_)));
    assert_eq!(s.bearer(&hash('c')).await.unwrap(), TokenLookup::Unknown);
    let t = s.create_tournament("Cup", &hash('d'), Some(forever)).await.unwrap();
    assert_eq!(s.revoke_token(forever).await.unwrap(), Revoked::Now);
    assert_eq!(s.revoke_token(forever).await.unwrap(), Revoked::Already);
    assert_eq!(s.revoke_token(987_654).await.unwrap(), Revoked::NoSuchToken);
    assert_eq!(s.bearer(&hash('a')).await.unwrap(), TokenLookup::Revoked);
    assert_eq!(s.tournament(t.id).await.unwrap().map(|x| x.name), Some("Cup".into()));
    assert_eq!(s.bearer(&hash('d')).await.unwrap(), TokenLookup::Valid(Bearer::Organizer { tournament: t.id }));
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(s.bearer(&hash('b')).await.unwrap(), TokenLookup::Expired);
    let listed = s.tokens().await.unwrap();
    assert_eq!(
        listed.iter().map(|t| (t.id, t.revoked_at.is_some(), t.expired)).collect::<Vec<_>>(),
        [(forever, true, false), (short, false, true)]
    );
    assert!(listed[1].expires_at.is_some() && listed[0].expires_at.is_none());
}

/// The real binary, killed while importing: only whole games are stored; a second run stores
/// the rest, each game once.
async fn kill_mid_import_leaves_only_whole_games<S: TestStore>(s: &S) {
    const GAMES: usize = 300;
    let dir = TempDir::new();
    let base = fixture("complete_4p.json").bytes;
    let expected = record_of(&base, Some("caverna-log/1"));
    let mut ndjson = Vec::new();
    for i in 0..GAMES {
        ndjson.extend(variant(&base, &format!("kill-{i}")));
        ndjson.push(b'\n');
    }
    let file = dir.0.join("games.ndjson");
    std::fs::write(&file, ndjson).unwrap();

    let spawn = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_chronicle"))
            .args(["import", "--json", "--batch", "5", "--database-url", s.url()])
            .arg(&file)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn chronicle")
    };
    let mut child = spawn();
    let started = Instant::now();
    while s.game_count().await.unwrap() < 20 {
        assert!(started.elapsed() < Duration::from_secs(120), "the import stored nothing in 120 s");
        if child.try_wait().unwrap().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let stored = s.game_count().await.unwrap();
    assert!(stored > 0 && (stored as usize) < GAMES, "killed too late to test anything: {stored} of {GAMES} stored");

    // Every stored game is whole: log, players with their sheets, facts.
    let whole = |table: &str, n: usize| {
        format!("SELECT COUNT(*) FROM games g WHERE (SELECT COUNT(*) FROM {table} t WHERE t.game_id = g.id) <> {n}")
    };
    for (table, n) in [("game_logs", 1), ("game_players", expected.players.len()), ("game_facts", 1)] {
        assert_eq!(s.count(&whole(table, n)).await, 0, "a stored game lacks rows in {table}");
    }
    assert_eq!(s.count("SELECT COUNT(*) FROM game_players WHERE sheet IS NULL").await, 0);
    assert_eq!(s.count("SELECT COUNT(*) FROM game_players").await, stored * expected.players.len() as i64);

    // Run again: the rest is imported, what was stored is a duplicate.
    let out = spawn().wait_with_output().expect("rerun");
    assert!(out.status.success(), "rerun failed: {}", String::from_utf8_lossy(&out.stdout));
    let summary: Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert_eq!(summary["imported"], GAMES - stored as usize, "{summary}");
    assert_eq!(summary["duplicates"], stored, "{summary}");
    assert_eq!(summary["failed"], 0);
    assert_eq!(s.game_count().await.unwrap(), GAMES as i64);
    assert_eq!(s.count("SELECT COUNT(DISTINCT log_sha256) FROM games").await, GAMES as i64);
    assert_eq!(s.count("SELECT COUNT(DISTINCT meta_id) FROM games").await, GAMES as i64);
    assert_eq!(s.count(&whole("game_facts", 1)).await, 0);
}

/// `chronicle import` / `reverify` through the CLI, in-process: flags, JSON shapes, exit codes.
async fn cli_import_and_reverify<S: TestStore>(s: &S) {
    let url = s.url().to_owned();
    let dir = TempDir::new();
    let bad = dir.0.join("bad.json");
    std::fs::write(&bad, "{").unwrap();
    let run = move |args: Vec<String>| {
        // `cli::run` starts its own runtime: call it off this one.
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let mut err = Vec::new();
            let args: Vec<OsString> = args.into_iter().map(OsString::from).collect();
            let code = chronicle_api::cli::run(args, &mut std::io::empty(), &mut out, &mut err);
            (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
        })
        .join()
        .expect("cli thread")
    };
    let fixture = fixtures_dir().join("complete_3p.json").display().to_string();
    let args = |extra: &[&str]| {
        let mut v = vec!["chronicle".to_owned()];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let (code, out, err) =
        run(args(&["import", "--json", "--database-url", &url, &fixture, &bad.display().to_string()]));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v, serde_json::json!({"imported": 1, "duplicates": 0, "invalid": 1, "failed": 0}));
    let (code, out, _) = run(args(&["import", "--database-url", &url, &fixture]));
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "imported 0, duplicates 1, invalid 0 (stored with their error), failed 0");
    let (code, out, _) = run(args(&["reverify", "--json", "--database-url", &url]));
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v, serde_json::json!({"reverified": 2, "changed": 0, "failed": 0, "changes": []}));
    s.exec("UPDATE game_players SET total = total - 1 WHERE seat = 0").await;
    let (code, out, _) = run(args(&["reverify", "--database-url", &url]));
    assert_eq!(code, 0);
    assert!(out.contains(" -> complete") && out.ends_with("reverified 2, changed 1, failed 0\n"), "{out}");
    // Usage errors: exit 2 with a message, nothing stored.
    let (code, _, err) = run(args(&["import", "--database-url", "mysql://x/y", &fixture]));
    assert_eq!(code, 2);
    assert!(err.contains("unsupported database URL"), "{err}");
    let (code, _, err) = run(args(&["import", "--database-url", &url, "/no/such/file.json"]));
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file.json"), "{err}");
    assert_eq!(s.game_count().await.unwrap(), 2);
}
