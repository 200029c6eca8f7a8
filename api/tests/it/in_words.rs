//! Pages speak the players' language: no page of a stored game shows an entry as JSON or a
//! player by a 0-based index — for the fixtures of every game (valid and invalid) and for
//! simulated games.

use crate::common::server::*;
use crate::common::*;

/// What would give an entry's JSON or a 0-based seat away on a page.
const TELLTALES: [&str; 6] = ["&quot;type&quot;", "{\"type\"", "&quot;player&quot;", "player 0", "Player 0", "seat 0"];

fn logs_of(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".expect.json"))
        .collect();
    paths.sort();
    paths
}

/// Every game page and the viewer's board at its first, middle and last entry say entries in
/// words and seats from 1.
#[test]
fn game_pages_show_no_entry_json_and_no_zero_based_seat() {
    let db = Database::sqlite();
    let dir = TempDir::new();
    for (game, players) in [("caverna", "3"), ("village", "2"), ("above-and-below", "2")] {
        let out = chronicle()
            .args(["simulate", "--game", game, "--games", "2", "--players", players, "--seed", "4", "--out"])
            .arg(dir.0.join(game))
            .output()
            .expect("simulate");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = logs_of(&fixtures_dir());
    for game in ["village", "above-and-below"] {
        paths.extend(logs_of(&root.join("engine").join(game).join("tests/fixtures")));
    }
    for game in ["caverna", "village", "above-and-below"] {
        paths.extend(logs_of(&dir.0.join(game)));
    }
    let out = chronicle().arg("import").args(["--database-url", &db.url()]).args(&paths).output().expect("import");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let server = Server::start(&db, &[]);
    let listed =
        server.data(None, "{ games(first: 100) { edges { node { id entriesApplied } } } }", serde_json::json!({}));
    let games: Vec<_> = listed["games"]["edges"].as_array().expect("games").iter().map(|e| e["node"].clone()).collect();
    assert!(games.len() >= 30, "{} games stored", games.len());
    for g in &games {
        let id = g["id"].as_str().expect("id");
        let applied = g["entriesApplied"].as_i64().unwrap_or(0);
        let mut pages = vec![format!("/games/{id}")];
        pages.extend(
            [0, applied / 2, applied - 1].iter().filter(|&&n| n >= 0).map(|n| format!("/games/{id}/board?at={n}")),
        );
        for page in pages {
            let (status, html) = server.get(&page);
            assert_eq!(status, 200, "{page}");
            for t in TELLTALES {
                assert!(!html.contains(t), "{page} shows `{t}`: …{}…", around(&html, t));
            }
        }
    }
}

/// A little of `html` around the first `t`, to see what gave it away.
fn around(html: &str, t: &str) -> String {
    let at = html[..html.find(t).unwrap_or(0)].chars().count();
    html.chars().skip(at.saturating_sub(120)).take(240 + t.len()).collect()
}
