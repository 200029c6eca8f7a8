//! The rating models kept in the store (docs/scaling.md, "Models in the store"), on a real
//! SQLite file and a real PostgreSQL database: the models step computes each game's ratings
//! once over the counted games and stores them; what a service reads back (the ratings table,
//! a player's rating and history, each seat's rating before its game, Caverna's strategy
//! effects without a filter) equals the ratings computed in memory over the same games; a
//! second process finds nothing to compute; a merge of identities or newly counted games make
//! the stored model stale until it is computed again.

use std::collections::HashMap;

use chronicle_analytics::skill::{Skill, SkillGame};
use chronicle_game::GameKind;
use chronicle_service::admission::AdmissionLimits;
use chronicle_service::{models, stats_corpus, tallies, Service};
use chronicle_store::{Backend, Store};
use serde_json::Value;

use crate::common::server::{chronicle, Database};
use crate::common::*;

/// Names the games' seats are given, in turn, so that players meet in several games.
const NAMES: [&str; 7] = ["Ada", "Bo", "Cleo", "Dag", "Eun", "Fen", "Gus"];

/// Simulated games of `kinds`, every size it allows, dated in order, their seats named from
/// [`NAMES`] (distinct in a game); every fourth played at a club (not simulated).
fn named_games(kinds: &[GameKind], count: u64, seed: u64) -> Vec<Value> {
    let choice = chronicle_game::Simulation::default();
    kinds
        .iter()
        .flat_map(|&kind| {
            let engine = chronicle_ingest::games::engine(kind);
            let sizes: Vec<u8> = kind.spec().players().collect();
            (0..count).map(move |i| {
                let at = usize::try_from(i).expect("small");
                let players = sizes[at % sizes.len()];
                let mut log = engine.simulate_with(seed * 1_000 + i, players, &choice).expect("a simulated game");
                for seat in 0..usize::from(players) {
                    let name = Value::String(NAMES[(at * 3 + seat) % NAMES.len()].into());
                    // A seat is a name, or an object with one (as each game's log format says).
                    match &mut log["setup"]["players"][seat] {
                        Value::Object(p) => drop(p.insert("name".into(), name)),
                        other => *other = name,
                    }
                }
                log["meta"]["played_at"] = Value::String(format!("2026-0{}-{:02}T18:00:00Z", 1 + seed, 1 + i % 27));
                if i % 4 == 0 {
                    log["meta"]["source"] = Value::String("club".into());
                }
                log
            })
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

/// Every stored complete game of `kind` as the ratings read it.
async fn skill_games(store: &Backend, kind: GameKind) -> Vec<SkillGame> {
    let mut games = Vec::new();
    let mut after = 0;
    loop {
        let batch = store.complete_records(after, 500).await.expect("read games");
        let Some(last) = batch.last().map(|g| g.id) else { break };
        for g in &batch {
            if let Some((k, game)) = stats_corpus::skill_game(g.id, &g.record).expect("a stored game") {
                if k == kind {
                    games.push(game);
                }
            }
        }
        after = last;
    }
    games
}

/// The ratings computed in memory over every stored game of `kind`, with the stored aliases.
async fn in_memory(store: &Backend, kind: GameKind) -> Skill {
    let aliases: HashMap<String, String> = store.player_aliases().await.expect("aliases").into_iter().collect();
    let games = skill_games(store, kind).await;
    tokio::task::spawn_blocking(move || Skill::compute_for(&games, &aliases, kind == GameKind::Caverna))
        .await
        .expect("a blocking task")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// What the service reads from the stored model of `kind` equals `expected`.
async fn agrees(service: &Service, store: &Backend, kind: GameKind, expected: &Skill) {
    let model = service.ratings_model(kind).await.expect("a model").expect("stored");
    assert!(!model.behind, "{kind}: the model covers every counted game");
    assert_eq!(model.games, u64::try_from(expected.games).expect("small"), "{kind}");
    let table = expected.ratings.table();
    assert!(table.len() >= 4, "{kind}: several players are rated");
    assert_eq!(model.players, u64::try_from(table.len()).expect("small"), "{kind}");
    let stored = service.rating_table(kind, 0, 1_000).await.expect("the table");
    assert_eq!(stored.len(), table.len(), "{kind}");
    for (place, ((key, r), s)) in table.iter().zip(&stored).enumerate() {
        assert_eq!((s.place, s.player.as_str()), (i64::try_from(place).expect("small"), *key), "{kind}");
        assert!(close(s.mu, r.rating.mu) && close(s.sigma, r.rating.sigma), "{kind} {key}");
        assert_eq!(s.games, i64::from(r.games), "{kind} {key}");
        assert_eq!(Some(&s.name), expected.names.get(*key), "{kind} {key}: the latest name");
        let one = service.player_rating(kind, key).await.expect("a rating").expect("rated");
        assert_eq!(&one, s, "{kind} {key}");
        let history = service.rating_history(kind, key, 1_000).await.expect("history");
        let points: Vec<_> = expected.ratings.history(key).iter().rev().collect();
        assert_eq!(history.len(), points.len(), "{kind} {key}");
        for (h, p) in history.iter().zip(points) {
            assert_eq!((h.game_id, h.seat, h.order), (p.game_id, p.seat, i64::from(p.order)), "{kind} {key}");
            assert!(close(h.mu_before, p.before.mu) && close(h.sigma_after, p.after.sigma), "{kind} {key}");
        }
    }
    // Each game's seats, as the game's page and `ratingsBefore` read them (none for a game
    // that is not rated: solo, or a player at two seats once identities are merged).
    let games = skill_games(store, kind).await;
    for g in games.iter().take(20) {
        let seats = service.seat_ratings(g.game_id).await.expect("seat ratings");
        let rated: Vec<_> = (0..u8::try_from(g.seats.len()).expect("small"))
            .filter_map(|seat| expected.ratings.before(g.game_id, seat).map(|r| (seat, r)))
            .collect();
        assert_eq!(seats.len(), rated.len(), "{kind} game {}", g.game_id);
        for (s, (seat, before)) in seats.iter().zip(&rated) {
            assert_eq!(s.seat, *seat, "{kind} game {}", g.game_id);
            assert!(close(s.mu_before, before.mu) && close(s.sigma_before, before.sigma), "{kind} game {}", g.game_id);
        }
    }
    if kind == GameKind::Caverna {
        let kept = model.effects.expect("Caverna keeps its strategy effects");
        let everything = &kept.everything.effects;
        assert_eq!(everything.len(), expected.effects.len());
        for (s, e) in everything.iter().zip(&expected.effects) {
            assert_eq!((s.strategy, s.used.n, s.controlled.switchers), (e.strategy, e.used.n, e.controlled.switchers));
            assert_eq!(s.controlled.win.is_some(), e.controlled.win.is_some());
        }
        assert!(kept.default.left_out > 0, "simulated games are left out beside the club's by default");
        assert_eq!(kept.default.exclude_source.as_deref(), Some("simulate"));
    } else {
        assert!(model.effects.is_none(), "{kind} has no strategies");
    }
}

fn threaded() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime")
}

fn stored_ratings_answer_as_ratings_computed_in_memory(db: Database) {
    import(&db, &named_games(GameKind::ALL, 16, 1));
    threaded().block_on(async {
        let store = chronicle_store::open(&db.url()).await.expect("open");
        let service = Service::new(store.clone(), 16, AdmissionLimits::for_this_machine()).expect("a service");
        for &kind in GameKind::ALL {
            assert_eq!(service.ratings_model(kind).await.expect("read"), None, "nothing stored before the models step");
        }
        tallies::catch_up(&store).await.expect("count");
        let done = models::refresh(&store).await.expect("compute the models");
        assert_eq!(done.stored, GameKind::ALL.to_vec(), "every game's model is stored");
        for &kind in GameKind::ALL {
            agrees(&service, &store, kind, &in_memory(&store, kind).await).await;
        }
        assert!(!service.holds_rows(), "the ratings are read from the store, not from every game's rows");

        // Another process finds every model current: nothing to compute.
        let other = chronicle_store::open(&db.url()).await.expect("a second connection pool");
        assert_eq!(models::refresh(&other).await.expect("look again").stored, Vec::<GameKind>::new());

        // Merged identities: the stored models are stale until computed again with them.
        store.merge_players("name:ada", &["name:bo".to_owned()]).await.expect("merge");
        let stale = service.ratings_model(GameKind::Village).await.expect("read").expect("stored");
        assert!(stale.behind, "a model computed before the merge says it is behind");
        assert_eq!(models::refresh(&other).await.expect("compute again").stored, GameKind::ALL.to_vec());
        for &kind in GameKind::ALL {
            let expected = in_memory(&store, kind).await;
            assert!(expected.ratings.player("name:bo").is_none(), "Bo is Ada now");
            agrees(&service, &store, kind, &expected).await;
        }

        // Games stored and counted later: only their game's model is computed again.
        import(&db, &named_games(&[GameKind::Caverna, GameKind::AboveAndBelow], 6, 2));
        tallies::catch_up(&store).await.expect("count");
        let stale = service.ratings_model(GameKind::Caverna).await.expect("read").expect("stored");
        assert!(stale.behind, "newly counted Caverna games leave the stored model behind");
        let again = models::refresh(&store).await.expect("compute again").stored;
        assert!(again.contains(&GameKind::Caverna) && !again.contains(&GameKind::Village), "{again:?}");
        for &kind in GameKind::ALL {
            agrees(&service, &store, kind, &in_memory(&store, kind).await).await;
        }
        other.close().await;
        store.close().await;
    });
}

both_stores!(stored_ratings_answer_as_ratings_computed_in_memory);
