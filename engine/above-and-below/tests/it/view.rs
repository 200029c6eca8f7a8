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
        assert_eq!(timeline.view(timeline.steps.len().checked_sub(1)), Some(&end), "{name}");
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
/// track left to right, and the face-up rows under their printed headings.
#[test]
fn the_view_says_holdings_as_players_do() {
    let r = AboveAndBelow::replay_until(&logs()[0].1, 0);
    let view = board_view(r.game.as_ref().expect("game"));
    let line = |label: &str| view.players[0].lines.iter().find(|l| l.label == label).map(|l| l.text.clone());
    assert_eq!(line("Villagers").as_deref(), Some("Start hammer (ready), Start quill (ready), Start explorer (ready)"));
    assert_eq!(line("Storage track").as_deref(), Some("empty"));
    assert_eq!(line("For sale").as_deref(), Some("nothing"));
    let rows = view.areas.iter().find(|a| a.id == "rows").and_then(|a| a.table.as_ref()).expect("rows");
    assert_eq!(rows.headers, ["Row", "Cards face up"]);
    let labels: Vec<&str> = rows.rows.iter().map(|r| r.cells[0].as_str()).collect();
    assert_eq!(labels, ["Houses", "Outposts", "Key houses", "Star houses", "Villagers to train", "Training costs"]);
    let decks = view.areas.iter().find(|a| a.id == "decks").expect("decks");
    assert!(decks.lines.iter().any(|l| l.text == "a cider on the board"), "{decks:?}");
}
