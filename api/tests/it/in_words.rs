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

/// The numbers of a game page never contradict each other (docs/web.md "/games/ID"): at every
/// entry of `complete_3p.json`, the board's score if the game ended now, the ledger's running
/// points and `chronicle state --at N` agree; each entry has its sentence; the last entry shows
/// the game's final totals.
#[test]
fn the_viewer_the_ledger_and_chronicle_state_agree_at_every_entry() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "numbers");
    let log = fixture("complete_3p.json").bytes;
    let q = "mutation($log: JSON!) { submitGame(log: $log) { game { id } } }";
    let text: serde_json::Value = serde_json::from_slice(&log).expect("JSON");
    let data = server.data(Some(&token), q, serde_json::json!({ "log": text }));
    let id = data["submitGame"]["game"]["id"].as_str().expect("game id").to_owned();
    let (_, page) = server.get(&format!("/games/{id}"));
    assert!(page.contains("<tr class=\"automatic\""), "the harvests are rows of their own");
    let rows: Vec<&str> = page.split("<tr data-entry=").skip(1).collect();
    let applied = rows.len();
    assert!(applied > 100, "{applied} ledger rows");
    let mut totals_checked = 0;
    for (n, row) in rows.iter().enumerate() {
        let state = <chronicle_caverna::Caverna as chronicle_game::GameEngine>::state_at(&log, Some(n)).expect("state");
        let expected: Vec<String> = state.state["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| p["provisional_score"]["total"].to_string())
            .collect();
        let running: Vec<String> =
            row.split("class=\"num running\"><strong>").skip(1).map(|c| c[..c.find('<').unwrap()].to_owned()).collect();
        assert_eq!(running, expected, "entry {n}: the ledger's running points");
        // The new totals of what the entry changed (goods, animals, begging markers), player by
        // player, are the state's.
        let cells: Vec<&str> = row.split("class=\"num running\">").skip(1).collect();
        for (seat, cell) in cells.iter().enumerate() {
            for item in cell.split("data-item=\"").skip(1) {
                let id = &item[..item.find('"').unwrap()];
                let total: i64 =
                    item.split("data-total=\"").nth(1).and_then(|t| t[..t.find('"')?].parse().ok()).expect("a total");
                if let Some(want) = state.state["players"][seat][id].as_i64() {
                    assert_eq!(total, want, "entry {n}, seat {}: {id}", seat + 1);
                    totals_checked += 1;
                }
            }
        }
        let sentence = row.split("class=\"sentence\">").nth(1).map(|c| &c[..c.find('<').unwrap()]).unwrap_or("");
        assert!(sentence.ends_with('.') && sentence.len() > 10, "entry {n}: a sentence, not `{sentence}`");
        let (_, board) = server.get(&format!("/games/{id}/board?at={n}"));
        let shown: Vec<String> =
            board.split("provisional-total\">").skip(1).map(|c| c[..c.find('<').unwrap()].to_owned()).collect();
        assert_eq!(shown, expected, "entry {n}: the board's score if the game ended now");
    }
    assert!(totals_checked > 200, "{totals_checked} running totals checked against the state");
    let last = applied - 1;
    let cli = chronicle()
        .args(["state", "--json", "--at", &last.to_string()])
        .arg(fixtures_dir().join("complete_3p.json"))
        .output()
        .expect("state");
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).expect("JSON");
    let expect: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixtures_dir().join("complete_3p.expect.json")).expect("expect"))
            .expect("JSON");
    let finals: Vec<String> =
        expect["players"].as_array().expect("players").iter().map(|p| p["score"]["total"].to_string()).collect();
    let at_last: Vec<String> = cli["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["provisional_score"]["total"].to_string())
        .collect();
    assert_eq!(at_last, finals, "chronicle state at the last entry: the final totals");
}

/// A tournament's page offers the stored games that name it and are not in it — but not a game
/// its organizer replaced by a corrected upload (docs/web.md "/tournaments/ID").
#[test]
fn a_replaced_game_is_not_offered_to_its_tournament_again() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "organizer");
    let submit = |bytes: Vec<u8>| {
        let log: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        let q = "mutation($log: JSON!) { submitGame(log: $log) { game { id } } }";
        let data = server.data(Some(&token), q, serde_json::json!({ "log": log }));
        data["submitGame"]["game"]["id"].as_str().expect("game id").to_owned()
    };
    // Both logs name "Spring league 2025" in their meta.
    let first = submit(fixture("complete_3p.json").bytes);
    let corrected = submit(variant(&fixture("complete_3p.json").bytes, "club-2025-03-14-t2-corrected"));
    let made = server.data(
        Some(&token),
        "mutation { createTournament(name: \"Spring league 2025\") { tournament { id } organizerToken } }",
        serde_json::json!({}),
    );
    let tid = made["createTournament"]["tournament"]["id"].as_str().expect("id").to_owned();
    let organizer = made["createTournament"]["organizerToken"].as_str().expect("token").to_owned();
    let add = format!("mutation {{ addGamesToTournament(tournamentId: \"{tid}\", gameIds: [\"{first}\"]) {{ id }} }}");
    server.data(Some(&organizer), &add, serde_json::json!({}));
    let naming =
        |page: &str| page.split("id=\"naming\"").nth(1).map(|s| s.split("</section>").next().unwrap_or("").to_owned());
    let (_, page) = server.get(&format!("/tournaments/{tid}"));
    let offered = naming(&page).expect("games that name the tournament");
    assert!(offered.contains(&format!("/games/{corrected}\"")), "the corrected upload is offered: {offered}");

    let replace = format!(
        "mutation {{ replaceTournamentGame(tournamentId: \"{tid}\", gameId: \"{first}\", newGameId: \"{corrected}\") {{ id }} }}"
    );
    server.data(Some(&organizer), &replace, serde_json::json!({}));
    let (_, page) = server.get(&format!("/tournaments/{tid}"));
    assert!(
        naming(&page).is_none_or(|s| !s.contains(&format!("/games/{first}\""))),
        "the replaced game is offered again"
    );
}

both_stores!(where_a_game_was_played_is_stored_and_said);

/// A log's `meta.place` (docs/log-format.md "meta") is stored with its game, given by the API
/// (`meta { place }`) and said on the game page with the date ("Played 2026-11-28 at Lyon").
fn where_a_game_was_played_is_stored_and_said(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "place");
    let mut log: serde_json::Value = serde_json::from_slice(&fixture("complete_3p.json").bytes).expect("JSON");
    log["meta"] = serde_json::json!({ "played_at": "2026-11-28", "place": "Lyon" });
    let q = "mutation($log: JSON!) { submitGame(log: $log) { game { id meta { playedAt place } } } }";
    let data = server.data(Some(&token), q, serde_json::json!({ "log": log }));
    let game = &data["submitGame"]["game"];
    assert_eq!(game["meta"], serde_json::json!({ "playedAt": "2026-11-28", "place": "Lyon" }));
    let id = game["id"].as_str().expect("id");
    let (_, page) = server.get(&format!("/games/{id}"));
    assert!(page.contains("Played 2026-11-28 at Lyon."), "the page says where the game was played");
}
