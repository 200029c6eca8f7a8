//! The board view (`view::board_view`, the typed contract pages draw): every player named with
//! a panel per seat, the score as the state view has it, the phase and passes in words, and no
//! text that is an id or JSON, on the golden fixtures, the worked example and simulated games,
//! at every position of their timelines.

use chronicle_above_and_below::view::board_view;
use chronicle_above_and_below::{replay_until, synthetic, AboveAndBelow};
use chronicle_game::{BoardView, GameEngine};

/// The logs the view is checked on: the golden fixtures, the LOG-FORMAT example, and simulated
/// games of 2–4 players.
fn logs() -> Vec<(String, Vec<u8>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut logs: Vec<(String, Vec<u8>)> = ["golden-2p", "golden-3p-rich", "golden-4p-rich", "log-format-example"]
        .iter()
        .map(|name| (name.to_string(), std::fs::read(format!("{dir}/{name}.json")).expect("fixture")))
        .collect();
    for seed in 1..=6u64 {
        let players = 2 + (seed % 3) as u8;
        let log = AboveAndBelow::simulate(seed, players).expect("simulated");
        logs.push((format!("simulated {seed}/{players}"), serde_json::to_vec(&log).expect("json")));
    }
    logs
}

/// Every text of a view a page shows (not the ids, which are for pages and tests).
fn texts(v: &BoardView) -> Vec<String> {
    let mut t = vec![v.phase.clone()];
    t.extend(v.waiting_for.iter().cloned());
    t.extend(v.notes.iter().cloned());
    for a in &v.areas {
        t.push(a.title.clone());
        if let Some(table) = &a.table {
            t.extend(table.headers.iter().cloned());
            t.extend(table.rows.iter().flat_map(|r| r.cells.iter().cloned()));
        }
        t.extend(a.lines.iter().flat_map(|l| [l.label.clone(), l.text.clone()]));
    }
    for p in v.players.iter().chain(&v.others) {
        t.push(p.name.clone());
        t.extend(p.aside.iter().cloned());
        t.extend(p.counts.iter().map(|c| c.label.clone()));
        t.extend(p.lines.iter().flat_map(|l| [l.label.clone(), l.text.clone()]));
    }
    t
}

/// Asserts no text of a view is a raw id or JSON.
fn assert_in_words(v: &BoardView, what: &str) {
    for text in texts(v) {
        assert!(!text.contains('_') && !text.contains('{') && !text.contains('"'), "{what}: {text:?}");
    }
}

/// The view of a finished replay names every player in a panel of their own seat, scores each
/// row and the total as the state view's `provisional_score`, heads with the state's round and
/// player to move, and says all of it in words.
#[test]
fn the_board_view_names_every_player_and_scores_as_the_state_view() {
    let rows: Vec<&str> = chronicle_game::kind::ABOVE_AND_BELOW.score_rows.iter().map(|r| r.id).collect();
    for (name, log) in logs() {
        let r = AboveAndBelow::replay(&log);
        let view = board_view(r.game.as_ref().expect("a valid setup"));
        let state = AboveAndBelow::state_view(&r).expect("state").state;
        let players = state["players"].as_array().expect("players");
        assert_eq!(view.players.len(), players.len(), "{name}");
        assert_eq!(
            (view.round, view.to_move),
            (state["round"].as_u64().map_or(0, |n| n as u16), state["to_move"].as_u64().map(|s| s as usize)),
            "{name}"
        );
        for (seat, (panel, p)) in view.players.iter().zip(players).enumerate() {
            assert_eq!((panel.seat, Some(panel.name.as_str())), (Some(seat), p["name"].as_str()), "{name}");
            let score = panel.score.as_ref().expect("a score");
            assert_eq!(Some(score.total), p["provisional_score"]["total"].as_i64(), "{name} seat {seat}");
            let ids: Vec<&str> = score.rows.iter().map(|(id, _)| id.as_str()).collect();
            assert_eq!(ids, rows, "{name}");
            for (id, points) in &score.rows {
                assert_eq!(Some(*points), p["provisional_score"]["rows"][id].as_i64(), "{name} seat {seat} {id}");
            }
            assert_eq!(panel.counts.iter().find(|c| c.id == "coins").map(|c| c.value), p["coins"].as_i64());
        }
        assert_in_words(&view, &name);
    }
}

/// The timeline (from the engine's walk) has the setup and one view per legal entry, each in
/// words with a panel per seat, its ledger is the engine's ledger, and its last view is the
/// view of the log replayed to its end without end-of-log defaults.
#[test]
fn every_position_of_the_timeline_is_in_words() {
    for (name, log) in logs() {
        let timeline = AboveAndBelow::timeline(&log).expect("a valid setup");
        assert_eq!(timeline.ledger(), AboveAndBelow::ledger(&log), "{name}");
        let seats = timeline.setup.players.len();
        assert!(seats >= 2 && timeline.setup.round == 1 && timeline.setup.to_move == Some(0), "{name}");
        for (at, step) in timeline.steps.iter().enumerate() {
            assert_eq!(step.view.players.len(), seats, "{name} entry {at}");
            assert_in_words(&step.view, &format!("{name} entry {at}"));
        }
        let last = replay_until(&log, Some(usize::MAX));
        let end = board_view(last.game.as_ref().expect("game"));
        let mut shown = timeline.view(timeline.steps.len().checked_sub(1)).cloned().expect("a view");
        assert_eq!(AboveAndBelow::open_view(&log).as_ref(), Some(&shown), "{name}: the open view is the last");
        // The last view adds the exploration its entry made, if it made one.
        shown.areas.retain(|a| a.id != "exploration");
        assert_eq!(shown, end, "{name}");
    }
}

/// Players who passed are noted by name, and a position no player is to move in says what the
/// game waits for instead.
#[test]
fn the_view_notes_who_passed_by_name_and_what_the_game_waits_for() {
    let log = serde_json::to_vec(&AboveAndBelow::simulate(3, 3).expect("simulated")).expect("json");
    let entries = AboveAndBelow::verdict(&AboveAndBelow::replay(&log)).entries_applied;
    let mut passes_seen = false;
    for n in 0..=entries {
        let r = replay_until(&log, Some(n));
        let view = board_view(r.game.as_ref().expect("game"));
        let state = AboveAndBelow::state_view(&r).expect("state").state;
        let passed: Vec<&str> = state["passed"]
            .as_array()
            .expect("passed")
            .iter()
            .zip(state["players"].as_array().expect("players"))
            .filter(|(p, _)| p.as_bool() == Some(true))
            .filter_map(|(_, p)| p["name"].as_str())
            .collect();
        let note = view.notes.iter().find(|n| n.starts_with("Passed this round: "));
        assert_eq!(note.cloned(), (!passed.is_empty()).then(|| format!("Passed this round: {}", passed.join(", "))));
        passes_seen |= !passed.is_empty();
        assert_eq!(view.waiting_for.is_some(), view.to_move.is_none(), "entry {n}");
        assert!(matches!(view.phase.as_str(), "action phase" | "end of the round" | "game over"), "{}", view.phase);
    }
    assert!(passes_seen, "the simulated game has passes");
}

/// A game played with the synthetic component set says so, so that its made-up cards are not
/// taken for the printed game; a log declaring other data does not get the note.
#[test]
fn synthetic_cards_are_labelled_in_the_view() {
    for (name, log) in logs() {
        let view = board_view(AboveAndBelow::replay(&log).game.as_ref().expect("game"));
        let synthetic = view.notes.iter().any(|n| n.ends_with(synthetic::LABEL));
        assert_eq!(synthetic, name != "log-format-example", "{name}: {:?}", view.notes);
    }
}

/// A player's holdings read as the table says them: villagers with their state, the storage
/// track left to right with the VP its spaces score, the reputation track, and the market rows
/// under their printed headings, one row per card slot.
#[test]
fn the_view_says_holdings_as_players_do() {
    let r = AboveAndBelow::replay_until(&logs()[0].1, 0);
    let view = board_view(r.game.as_ref().expect("game"));
    let line = |label: &str| view.players[0].lines.iter().find(|l| l.label == label).map(|l| l.text.clone());
    assert_eq!(line("Villagers").as_deref(), Some("Start hammer (ready), Start quill (ready), Start explorer (ready)"));
    assert!(
        line("Storage track").is_some_and(|t| t.starts_with("empty · next space: ")),
        "{:?}",
        line("Storage track")
    );
    assert!(line("Reputation track").is_some_and(|t| t.starts_with("position 0, worth 0 VP")));
    assert_eq!(line("For sale").as_deref(), Some("nothing"));
    let titles: Vec<(&str, &str)> = view.areas.iter().map(|a| (a.id.as_str(), a.title.as_str())).take(6).collect();
    assert_eq!(
        titles,
        [
            ("houses", "House row"),
            ("outposts", "Outpost row"),
            ("keys", "Key houses"),
            ("stars", "Star houses"),
            ("villagers", "Villagers to train"),
            ("decks", "Decks")
        ]
    );
    let decks = view.areas.iter().find(|a| a.id == "decks").expect("decks");
    assert!(decks.lines.iter().any(|l| l.text == "a cider on the board"), "{decks:?}");
}

/// The ids of a view's areas and table rows (the rows pages make clickable).
fn ids(v: &BoardView) -> Vec<String> {
    v.areas
        .iter()
        .flat_map(|a| {
            std::iter::once(a.id.clone()).chain(a.table.iter().flat_map(|t| t.rows.iter().map(|r| r.id.clone())))
        })
        .collect()
}

/// A.7, C.5: each face-up market card is a row of its row's table whose id is the card's id,
/// with its slot counted from 1, its cost and the effects the log's catalogue declares; the
/// villager row gives each slot's training cost (A.6).
#[test]
fn c5_market_rows_are_identified_by_card_id_with_cost_and_effects() {
    let log = logs().swap_remove(0).1;
    let r = AboveAndBelow::replay_until(&log, 0);
    let game = r.game.as_ref().expect("game");
    let view = board_view(game);
    let state = AboveAndBelow::state_view(&r).expect("state").state;
    let catalogue: serde_json::Value =
        serde_json::from_slice::<serde_json::Value>(&log).expect("json")["setup"]["catalogue"].clone();
    let declared = |id: &str, list: &str| {
        catalogue[list].as_array().and_then(|l| l.iter().find(|c| c["id"] == id)).cloned().expect("declared")
    };
    for (area, row) in [("houses", "houses"), ("outposts", "outposts"), ("keys", "keys"), ("stars", "stars")] {
        let table = view.areas.iter().find(|a| a.id == area).and_then(|a| a.table.as_ref()).expect(area);
        assert_eq!(table.headers, ["Slot", "Card", "Cost", "Effects"]);
        let cards: Vec<&str> = state["rows"][row].as_array().expect("row").iter().filter_map(|c| c.as_str()).collect();
        let shown: Vec<&str> = table.rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(shown, cards, "{area}");
        for (slot, r) in table.rows.iter().enumerate() {
            let card = declared(&r.id, "cards");
            assert_eq!(r.cells[0], (slot + 1).to_string());
            let cost = card["cost"].as_u64().expect("cost");
            assert_eq!(r.cells[2], format!("{cost} coin{}", if cost == 1 { "" } else { "s" }), "{}", r.id);
            assert!(!r.cells[3].is_empty() && !r.cells[1].contains('_'), "{r:?}");
        }
    }
    let villagers = view.areas.iter().find(|a| a.id == "villagers").and_then(|a| a.table.as_ref()).expect("villagers");
    let costs: Vec<String> = state["train_costs"]
        .as_array()
        .expect("costs")
        .iter()
        .map(|c| format!("{} coin{}", c, if c == 1 { "" } else { "s" }))
        .collect();
    assert_eq!(villagers.rows.iter().map(|r| r.cells[2].clone()).collect::<Vec<_>>(), costs);
    assert!(villagers.rows.iter().all(|r| r.id.starts_with("villager_")), "{villagers:?}");
}

/// A.4: every player's villagers, houses and caves are rows of their village table, each
/// with its state and declared effects, identified by the seat counted from 1 and the id; the
/// ids of areas and rows are unique across every view of every timeline.
#[test]
fn a4_villagers_are_identified_per_seat_and_view_ids_are_unique() {
    for (name, log) in logs() {
        let timeline = AboveAndBelow::timeline(&log).expect("a valid setup");
        for view in std::iter::once(&timeline.setup).chain(timeline.steps.iter().map(|s| &s.view)) {
            let all = ids(view);
            let unique: std::collections::BTreeSet<&String> = all.iter().collect();
            assert_eq!(unique.len(), all.len(), "{name}: {all:?}");
            for (seat, panel) in view.players.iter().enumerate() {
                let village = view.areas.iter().find(|a| a.id == format!("seat-{}", seat + 1)).expect("a village");
                assert_eq!(village.title, format!("{}'s village", panel.name));
                let rows = &village.table.as_ref().expect("table").rows;
                let villagers: Vec<&str> =
                    rows.iter().filter(|r| r.cells[1] == "villager").map(|r| r.cells[2].as_str()).collect();
                assert!(!villagers.is_empty(), "{name}");
                assert!(villagers.iter().all(|s| matches!(*s, "ready" | "exhausted" | "injured")), "{villagers:?}");
                assert!(rows.iter().all(|r| r.id.starts_with(&format!("seat-{}/", seat + 1))), "{rows:?}");
            }
        }
    }
}

/// E: the view after an exploration draws it as its steps — the paragraph die, the lantern
/// dice with their lanterns (derived from the seed where a seeded log leaves them out), one
/// row per step of the chain with its result and outcome, and where the cave ended; the next
/// position no longer shows it.
#[test]
fn e_an_exploration_is_drawn_as_its_steps() {
    let mut seen = 0;
    for (name, log) in logs() {
        let entries: Vec<serde_json::Value> = serde_json::from_slice::<serde_json::Value>(&log).expect("json")
            ["entries"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let timeline = AboveAndBelow::timeline(&log).expect("a valid setup");
        for (i, step) in timeline.steps.iter().enumerate() {
            let explore = entries[i]["type"] == "turn" && entries[i]["action"]["do"] == "explore";
            let area = step.view.areas.iter().find(|a| a.id == "exploration");
            assert_eq!(area.is_some(), explore, "{name} entry {i}");
            let Some(area) = area else { continue };
            seen += 1;
            let mut chain = 0;
            let mut s = &entries[i]["action"]["step"];
            while s.is_object() {
                chain += 1;
                s = &s["then"];
            }
            assert_eq!(area.table.as_ref().map(|t| t.rows.len()), Some(chain), "{name} entry {i}");
            let line = |label: &str| area.lines.iter().find(|l| l.label == label).map(|l| l.text.as_str());
            assert!(
                line("Lantern dice").is_some_and(|t| !t.contains('?') && t.contains("lantern")),
                "{name} entry {i}: {area:?}"
            );
            assert!(line("Paragraph die").is_some_and(|t| !t.contains('?')), "{area:?}");
            assert!(
                line("Result").is_some_and(|t| t.ends_with("'s") || t.ends_with("under the cave deck")),
                "{area:?}"
            );
            assert!(
                area.title.starts_with(&step.view.players[step.line.player.expect("a player")].name),
                "{}",
                area.title
            );
        }
    }
    assert!(seen > 10, "the logs explore");
}

/// E, LOG-FORMAT "Worked example": the open view of a log that ends with an exploration shows
/// it with the dice as written — Alice's explorer rolls 5 (2 lanterns by the example's
/// profile), her quill 2, the paragraph die 4 reads paragraph 12, and the quill's last effort
/// reaches 4.
#[test]
fn e_the_open_view_after_an_exploration_shows_its_dice_and_step() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut log: serde_json::Value =
        serde_json::from_slice(&std::fs::read(format!("{dir}/log-format-example.json")).expect("fixture"))
            .expect("json");
    log["entries"].as_array_mut().expect("entries").truncate(1);
    let view = AboveAndBelow::open_view(&serde_json::to_vec(&log).expect("json")).expect("a view");
    let area = view.areas.first().filter(|a| a.id == "exploration").expect("the exploration leads the view");
    assert_eq!(area.title, "Alice explores Cave 03");
    let line = |label: &str| area.lines.iter().find(|l| l.label == label).map(|l| l.text.as_str());
    assert_eq!(line("Paragraph die"), Some("4 (paragraph 12)"));
    assert_eq!(line("Lantern dice"), Some("Start explorer 5 (2 lanterns), Start quill 2 (1 lantern)"));
    assert_eq!(line("Result"), Some("Cave 03 is now Alice's"));
    let step = &area.table.as_ref().expect("steps").rows[0];
    assert_eq!(
        step.cells,
        ["1", "12", "2", "explore 4 or 7", "last effort by Start quill", "reached 4", "gains 2 coins and 1 mushroom"]
    );
    let timeline = AboveAndBelow::timeline(&serde_json::to_vec(&log).expect("json")).expect("timeline");
    assert_eq!(
        timeline.steps[0].sentence,
        "Alice sends Start explorer and Start quill to explore Cave 03: rolls 5 and 2 (3 lanterns), reads paragraph 12 \
         (paragraph die 4), chooses option 2 (explore 4 or 7), Start quill makes a last effort, reaches 4 and gains 2 \
         coins and 1 mushroom; Cave 03 is now Alice's."
    );
}
