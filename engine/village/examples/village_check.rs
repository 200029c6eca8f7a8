//! Replays a log file and prints the verdict and the state (a development aid).
use chronicle_game::GameEngine;
use chronicle_village::Village;

fn main() {
    let Some(path) = std::env::args().nth(1) else { return };
    let Ok(bytes) = std::fs::read(&path) else { return };
    let r = Village::replay(&bytes);
    println!("{}", serde_json::to_string_pretty(&Village::verdict(&r)).unwrap_or_default());
    if let Some(s) = Village::state_view(&r) {
        println!("{}", serde_json::to_string_pretty(&s.state).unwrap_or_default());
    }
}
