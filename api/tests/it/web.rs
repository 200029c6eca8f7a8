//! The web app through a real headless Chromium (`common::browser`), against the real
//! `chronicle serve`: upload a log through the page, open its game page, step to an entry and
//! compare the board with `chronicle state` at that entry, open an invalid game and see its
//! error and the state before it, sort the furnishing statistics, read a tournament's page.
//! Plus the pages without JavaScript, read by a plain HTTP client.
//!
//! Screenshots: `CHRONICLE_SCREENSHOTS=DIR cargo test -p chronicle-api --test it web::` writes a
//! PNG of every page into DIR (docs/web.md).

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::browser::{browser_available, Browser};
use crate::common::server::*;
use crate::common::*;

fn screenshot(b: &Browser, name: &str) {
    if let Some(dir) = std::env::var_os("CHRONICLE_SCREENSHOTS") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("screenshot directory");
        b.screenshot(&dir.join(format!("{name}.png")));
    }
}

/// What `chronicle state --json --at N` says about a fixture log.
fn cli_state(name: &str, at: usize) -> Value {
    let path = fixtures_dir().join(name);
    let out =
        chronicle().args(["state", "--json", "--at", &at.to_string()]).arg(&path).output().expect("chronicle state");
    serde_json::from_slice(&out.stdout).expect("state JSON")
}

fn submit(server: &Server, token: &str, name: &str) -> String {
    let q = "mutation($log: JSON!) { submitGame(log: $log) { game { id } } }";
    let data = server.data(Some(token), q, json!({ "log": log(name) }));
    data["submitGame"]["game"]["id"].as_str().expect("game id").to_owned()
}

#[test]
fn pages_answer_without_javascript() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "pages");
    let id = submit(&server, &token, "complete_3p.json");
    let (status, home) = server.get("/");
    assert_eq!(status, 200);
    assert!(home.contains("<form id=\"upload-form\"") && home.contains("href=\"/games\""));
    let (status, list) = server.get("/games?status=complete");
    assert_eq!(status, 200);
    assert!(list.contains(&format!("href=\"/games/{id}\"")), "the games list links the game");
    let (status, game) = server.get(&format!("/games/{id}"));
    assert_eq!(status, 200);
    let expect: Value =
        serde_json::from_slice(&std::fs::read(fixtures_dir().join("complete_3p.expect.json")).unwrap()).unwrap();
    for p in expect["players"].as_array().unwrap() {
        assert!(
            game.contains(&format!("<td class=\"num\">{}</td>", p["score"]["total"])),
            "total {} on the page",
            p["score"]["total"]
        );
    }
    assert!(game.contains("Furnishing tiles, pastures and mines"), "score rows by their labels");
    assert!(game.contains("class=\"home-board "), "the board at the last entry, drawn without script");
    let (status, stats) = server.get("/stats/furnishings?players=3");
    assert_eq!(status, 200);
    assert!(stats.contains("id=\"furnishing-stats\"") && stats.contains("Observational"));
    assert_eq!(server.get("/stats/nonsense").0, 404);
    assert_eq!(server.get("/stats/furnishings?players=9").0, 400);
    assert_eq!(server.get("/games/999999").0, 404);
    assert_eq!(server.get("/games/not-a-number").0, 404);
    let (status, css) = server.get("/assets/app.css");
    assert_eq!(status, 200);
    assert!(css.contains(".home-board"));
    assert_eq!(server.get("/tournaments").0, 200);

    // Strategy vs skill, the ratings table and a player's page (docs/statistics.md).
    let (status, effects) = server.get("/stats/strategies");
    assert_eq!(status, 200);
    assert!(effects.contains("id=\"strategy-effects\"") && effects.contains("data-strategy=\"armed\""));
    assert!(effects.contains("Raw difference") && effects.contains("Controlled: win rate (percentage points)"));
    assert!(
        effects.contains("class=\"estimate not-enough\"") && effects.contains("not enough data: "),
        "the cells say why"
    );
    assert_eq!(server.get("/stats/strategies?min_rating=-5").0, 200);
    assert_eq!(server.get("/stats/strategies?min_rating=high").0, 400);
    let (status, ratings) = server.get("/players");
    assert_eq!(status, 200);
    let first = expect["players"][0]["name"].as_str().unwrap().to_owned();
    let key = format!("name:{}", first.to_lowercase());
    assert!(ratings.contains(&format!("href=\"/players/{key}?game=caverna\"")), "every rated player is linked by key");
    assert!(ratings.contains(&format!(">{first}</a>")), "and shown by the name written");
    let (status, player) = server.get(&format!("/players/{key}"));
    assert_eq!(status, 200);
    assert_eq!(server.get(&format!("/players/{first}")).0, 200, "a name finds the player too");
    assert!(player.contains("id=\"rating-history\"") && player.contains(&format!("href=\"/games/{id}\"")));
    assert_eq!(server.get("/players/nobody-at-all").0, 404);
}

#[test]
fn browser_upload_replay_invalid_game_statistics_and_tournament() {
    if !browser_available() {
        return;
    }
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "browser");
    let b = Browser::start();

    // Upload through the home page: paste a log, give the token, store.
    b.goto(&format!("{}/", server.base));
    screenshot(&b, "home");
    let text = String::from_utf8(fixture("complete_2p.json").bytes).unwrap();
    b.script("document.querySelector('#paste').value = arguments[0];", json!([text]));
    b.type_into(&b.find("#token"), &token);
    b.click(&b.find("#store"));
    let link = b.find("#results li.result a");
    let href = b.attribute(&link, "href").expect("a link to the stored game");
    let id = href.trim_start_matches("/games/").to_owned();
    assert!(b.text(&b.find("#results li.result")).contains("complete"));
    screenshot(&b, "home-uploaded");

    // The game page, then entry 7 by its permalink, then one step right with the keyboard.
    b.goto(&format!("{}/games/{id}#entry-7", server.base));
    b.wait_until("entry 7", |b| b.try_find("#current-entry[data-at=\"7\"]").is_some());
    let state = cli_state("complete_2p.json", 7);
    for (seat, p) in state["players"].as_array().unwrap().iter().enumerate() {
        for good in ["wood", "stone", "food", "ore", "gold"] {
            let n = p[good].as_i64().unwrap_or(0);
            let shown = b.try_find(&format!(".player[data-seat=\"{seat}\"] .good[data-good=\"{good}\"]"));
            match shown {
                Some(e) => assert_eq!(b.text(&e), format!("{n} {good}"), "seat {seat} {good} at entry 7"),
                None => assert_eq!(n, 0, "seat {seat} has {n} {good} at entry 7 but the page shows none"),
            }
        }
        let provisional = b.text(&b.find(&format!(".player[data-seat=\"{seat}\"] .provisional-total")));
        assert_eq!(provisional, p["provisional_score"]["total"].to_string(), "seat {seat}: provisional score");
        let cells = p["board"]["cells"].as_array().map_or(0, Vec::len);
        let shown = b.find_all(&format!(
            ".player[data-seat=\"{seat}\"] .cell:not(.ring) span, .player[data-seat=\"{seat}\"] .cell.ring span"
        ));
        assert!(shown.len() >= cells, "seat {seat}: {cells} covered spaces, {} drawn", shown.len());
    }
    screenshot(&b, "game");
    b.press("\u{E014}");
    b.wait_until("entry 8", |b| b.try_find("#current-entry[data-at=\"8\"]").is_some());
    assert!(b.url().ends_with("#entry-8"), "the permalink follows the step");
    // The ledger marks the entry shown, and says what it changed for its player.
    let row = b.find("#ledger tr.current");
    assert_eq!(b.attribute(&row, "data-entry").as_deref(), Some("8"));
    let ledger = <chronicle_caverna::Caverna as chronicle_game::GameEngine>::ledger(&fixture("complete_2p.json").bytes);
    let line = &ledger[8];
    let text = b.text(&row);
    for c in &line.changes {
        assert!(text.contains(&format!("{:+} {}", c.delta, c.item.replace('_', " "))), "{text} lacks {c:?}");
    }
    b.script("document.querySelector('#ledger tr.current').scrollIntoView({block: 'center'});", json!([]));
    screenshot(&b, "game-ledger");

    // An invalid game: its error, and the state just before the illegal entry.
    let bad = submit(&server, &token, "invalid_space_occupied.json");
    b.goto(&format!("{}/games/{bad}", server.base));
    let error = b.text(&b.find("#error"));
    assert!(error.contains("space_occupied"), "{error}");
    assert!(b.try_find("#error .illegal").is_some(), "the illegal entry in words");
    b.click(&b.find("#error .alternatives summary"));
    let instead = b.find_all("#error .alternatives li");
    assert!(!instead.is_empty(), "the legal alternatives to the illegal entry");
    assert!(b.text(&instead[0]).contains(" places a dwarf on "), "{}", b.text(&instead[0]));
    let verdict = server.data(None, "query($id: ID!) { game(id: $id) { error { entry } } }", json!({ "id": bad }));
    let entry = verdict["game"]["error"]["entry"].as_i64().unwrap();
    let shown = b.attribute(&b.find("#current-entry"), "data-at").unwrap();
    assert_eq!(shown, (entry - 1).to_string(), "the state before the illegal entry");
    screenshot(&b, "game-invalid");

    // Furnishing statistics, sorted by the number of builders.
    for name in ["complete_3p.json", "complete_4p.json", "complete_3p_furnishing.json"] {
        submit(&server, &token, name);
    }
    b.goto(&format!("{}/stats/furnishings", server.base));
    let header = b.find_all("#furnishing-stats thead th")[2].clone();
    b.click(&header);
    let built: Vec<i64> = b
        .script(
            "return [...document.querySelectorAll('#furnishing-stats tbody tr')].map(r => Number(r.children[2].dataset.sort));",
            json!([]),
        )
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_i64)
        .collect();
    assert!(built.len() > 10 && built.windows(2).all(|w| w[0] >= w[1]), "sorted by built, descending: {built:?}");
    // Sorted by a win rate, the rates from small samples follow the others (docs/web.md); a
    // minimum sample of 3 makes some rates small and others not.
    b.goto(&format!("{}/stats/furnishings?min=3", server.base));
    b.click(&b.find_all("#furnishing-stats thead th")[3].clone());
    let small: Vec<bool> = b
        .script(
            "return [...document.querySelectorAll('#furnishing-stats tbody tr')].map(r => r.children[3].classList.contains('small'));",
            json!([]),
        )
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_bool)
        .collect();
    assert!(small.contains(&true) && small.contains(&false), "both kinds of rows: {small:?}");
    assert!(small.windows(2).all(|w| w[0] <= w[1]), "small samples last: {small:?}");
    screenshot(&b, "stats-furnishings");

    // Create a tournament on the tournaments page (the API token is remembered from the upload),
    // then open it: the organizer token is already in the form.
    b.goto(&format!("{}/tournaments", server.base));
    b.type_into(&b.find("#tournament-name"), "Browser Cup");
    b.click(&b.find("#create-tournament"));
    let organizer = b.text(&b.find("#new-organizer-token"));
    assert!(organizer.starts_with("chr_"), "the organizer token is shown: {organizer}");
    assert_eq!(b.text(&b.find("#tournaments tbody td a")), "Browser Cup", "the list shows the new tournament at once");
    assert!(b.try_find("#no-tournaments").is_none(), "no more \"No tournament yet\"");
    b.click(&b.find("#create-result a"));
    b.wait_until("the tournament page", |b| b.try_find("#organizer-form").is_some());
    let empty = b.text(&b.find("#verification"));
    assert!(empty.contains("No games yet") && !empty.contains('✔'), "an empty tournament verifies nothing: {empty}");
    let filled = b.script("return document.querySelector('#organizer-token').value;", json!([]));
    assert_eq!(filled.as_str(), Some(organizer.as_str()), "the browser kept the organizer token");
    b.type_into(&b.find("#add-games"), &id);
    b.click(&b.find("#add"));
    b.wait_until("the game in the standings", |b| b.find_all("#standings tbody tr").len() == 2);
    assert!(b.text(&b.find("#verification")).contains("every game is complete"));
    screenshot(&b, "tournament");
    let tournament_page = b.url();
    // The game page says which tournaments hold it, by their current names.
    b.goto(&format!("{}/games/{id}", server.base));
    assert_eq!(b.text(&b.find("a.held-by")), "Browser Cup");
    b.goto(&tournament_page);

    // Read on a phone at the venue: nothing wider than the screen but the tables, which scroll.
    b.resize(390, 844);
    b.goto(&b.url());
    b.find("#standings");
    let overflow = b.script(
        "const w = document.documentElement.clientWidth; \
         return [...document.querySelectorAll('body *')].filter(e => !e.parentElement.closest('.scroll') && e.getBoundingClientRect().right > w + 1) \
           .map(e => e.tagName + '#' + e.id + '.' + e.className);",
        json!([]),
    );
    assert_eq!(overflow, json!([]), "elements wider than a phone's screen (outside scrolling tables)");
    let wider =
        b.script("return document.documentElement.scrollWidth - document.documentElement.clientWidth;", json!([]));
    assert_eq!(wider, json!(0), "the page scrolls sideways on a phone");
    screenshot(&b, "tournament-phone");
    b.resize(1280, 1600);

    // The organizer replaces the game by uploading its corrected log on the tournament's page
    // (stored with the API token the browser kept), then removes it.
    let row = format!("#organizer-games tr[data-game=\"{id}\"]");
    let corrected_log = fixtures_dir().join("complete_3p.json").canonicalize().expect("the fixture");
    b.type_into(&b.find(&format!("{row} .replacement-file")), &corrected_log.to_string_lossy());
    b.wait_until("the replacement", |b| {
        b.find_all("#organizer-games tr[data-game]")
            .iter()
            .any(|r| b.attribute(r, "data-game").as_deref() != Some(id.as_str()))
    });
    let corrected = b.attribute(&b.find("#organizer-games tr[data-game]"), "data-game").expect("the new game");
    assert!(b.try_find(&row).is_none(), "the replaced game is out");
    assert_eq!(b.find_all("#standings tbody tr").len(), 3, "three players of the corrected game");
    b.click(&b.find(&format!("#organizer-games tr[data-game=\"{corrected}\"] .remove-game")));
    b.wait_until("the removal", |b| b.try_find("#organizer-games").is_none());
    assert_eq!(b.find_all("#standings tbody tr").len(), 0);
    b.goto(&format!("{}/tournaments", server.base));
    assert_eq!(b.text(&b.find("#tournaments tbody td a")), "Browser Cup");
    b.goto(&format!("{}/tournaments?name=Nobody", server.base));
    assert!(b.find_all("#tournaments tbody tr").is_empty(), "no tournament of that name");
    screenshot(&b, "tournaments");

    // The other pages, for the screenshots.
    for (path, name) in [
        ("/games", "games"),
        ("/stats/weapons", "stats-weapons"),
        ("/stats/seats", "stats-seats"),
        ("/stats/scores", "stats-scores"),
        ("/stats/spaces", "stats-spaces"),
    ] {
        b.goto(&format!("{}{path}", server.base));
        b.find("main h1");
        screenshot(&b, name);
    }

    // GraphiQL from the binary, its documentation explorer filled by introspection at the
    // default limits.
    b.goto(&format!("{}/graphiql", server.base));
    b.click(&b.find("button[aria-label=\"Show Documentation Explorer\"]"));
    b.wait_until("the schema in the docs pane", |b| {
        b.try_find(".graphiql-doc-explorer").is_some_and(|e| b.text(&e).contains("Query"))
    });
    assert!(b.try_find(".graphiql-doc-explorer-error").is_none(), "no 'Error fetching schema'");
    screenshot(&b, "graphiql");
}
