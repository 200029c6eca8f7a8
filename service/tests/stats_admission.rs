//! Caverna statistics over one uploader's or one player's games are admitted as computations
//! (docs/reliability.md, "Heavy work is bounded"): with every replay slot taken they wait in the
//! bounded queue and are refused with `BUSY`, while statistics from kept tallies answer at once.

use std::time::Duration;

use chronicle_analytics::StatsFilter;
use chronicle_service::admission::AdmissionLimits;
use chronicle_service::{Service, ServiceError};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statistics_over_one_players_games_wait_for_a_slot_and_tallied_ones_do_not() {
    let dir = std::env::temp_dir().join(format!("chronicle-stats-admission-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let url = format!("sqlite://{}", dir.join("store.db").display());
    let store = chronicle_store::open(&url).await.expect("open the store");
    let limits = AdmissionLimits {
        replay_slots: 1,
        replay_memory: 1 << 20,
        body_memory: 1 << 20,
        queue: 4,
        wait: Duration::from_millis(50),
        rows_memory: 1 << 30,
        analysis_budget: 1,
    };
    let service = Service::new(store, 8, limits).expect("service");
    let scores = |s: &chronicle_analytics::Stats, f: &StatsFilter| s.scores(f, 5);

    let replay = service.admission().replay(1, 10).await.expect("the only slot");
    let tallied = service.stats_over(StatsFilter::default().player_count(3), scores).await;
    assert_eq!(tallied.expect("tallies need no slot").player_games, 0);
    for filter in [StatsFilter::default().player("name:ada"), StatsFilter::default().uploader("club")] {
        let refused = service.stats_over(filter, scores).await;
        assert!(matches!(refused, Err(ServiceError::Busy(_))), "{refused:?}");
    }
    drop(replay);
    let admitted = service.stats_over(StatsFilter::default().player("name:ada"), scores).await;
    assert_eq!(admitted.expect("a free slot").player_games, 0);
    let _ = std::fs::remove_dir_all(&dir);
}
