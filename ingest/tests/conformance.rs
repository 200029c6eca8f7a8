//! Every game Chronicle knows passes the engines' conformance checks
//! (`chronicle_game::conformance`): simulated games replay complete and deterministic, the way
//! a log is written never changes its verdict, every position can be shown, every offered
//! legal entry is accepted, envelope faults get the shared codes and the ledger accounts for
//! every entry. A game gets all of them by its line in the registry; nothing else is needed.

use chronicle_game::GameKind;

/// The conformance checks of the engine of `kind`, through the registry
/// (`chronicle_ingest::games`): a game is checked by being registered there.
fn check(kind: GameKind) {
    chronicle_ingest::games::engine(kind).check_conformance();
}

/// The games to check: every one of `GameKind::ALL`, or only those named (by id, comma
/// separated) in `CHRONICLE_CONFORMANCE_GAMES`, to time or debug one game.
fn games() -> Vec<GameKind> {
    let only = std::env::var("CHRONICLE_CONFORMANCE_GAMES").unwrap_or_default();
    let named: Vec<&str> = only.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    GameKind::ALL.iter().copied().filter(|k| named.is_empty() || named.contains(&k.id())).collect()
}

/// Each game runs on its own thread, so that one game's failure does not hide another's: the
/// test fails naming every game that failed (each failure's message is printed as it happens;
/// with `--nocapture`, each game's time per check is printed too).
#[test]
fn every_game_passes_the_engine_conformance_checks() {
    let games = games();
    assert!(!games.is_empty(), "CHRONICLE_CONFORMANCE_GAMES names no game");
    let failed: Vec<String> = std::thread::scope(|s| {
        let runs: Vec<_> = games
            .iter()
            .map(|&kind| {
                let thread = std::thread::Builder::new().name(format!("conformance-{kind}"));
                let run = thread.spawn_scoped(s, move || check(kind));
                (kind, run.unwrap_or_else(|e| panic!("{kind}: no thread: {e}")))
            })
            .collect();
        runs.into_iter().filter_map(|(kind, run)| run.join().is_err().then(|| kind.to_string())).collect()
    });
    assert!(failed.is_empty(), "games failing the conformance checks (messages above): {}", failed.join(", "));
}
