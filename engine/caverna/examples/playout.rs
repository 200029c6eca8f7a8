//! Plays one game choosing the first legal entry at every decision (a smoke check of the
//! generator): `cargo run -p chronicle-caverna --example playout -- PLAYERS SEED`.
use chronicle_caverna::legal::{legal_entries, Limits};
use chronicle_caverna::notation::SetupNotation;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let names: Vec<_> = (0..players).map(|i| serde_json::json!({ "name": format!("P{i}") })).collect();
    let n: SetupNotation = serde_json::from_value(serde_json::json!({ "players": names, "seed": seed })).unwrap();
    let mut game = chronicle_caverna::Game::new(chronicle_caverna::setup::validate(&n).unwrap());
    let limits = Limits::default();
    let mut entries = Vec::new();
    let t = std::time::Instant::now();
    while !game.is_over() {
        let required =
            matches!(game.phase(), chronicle_caverna::Phase::Work { .. } | chronicle_caverna::Phase::HarvestChoice);
        if !required {
            game.close_window();
            continue;
        }
        let legal = legal_entries(&game, &limits);
        let Some(e) = legal.get(seed as usize % legal.len().max(1)).cloned() else {
            eprintln!("no legal entry at {:?}", game.phase());
            break;
        };
        game.play_entry(&e).unwrap();
        entries.push(e);
    }
    eprintln!("{} entries in {:?}", entries.len(), t.elapsed());
    let log = serde_json::json!({ "format": "caverna-log/1", "setup": { "players": names, "seed": seed }, "entries": entries });
    println!("{log}");
}
