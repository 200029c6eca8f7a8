//! Simulates games and prints each verdict's status, entry count and totals (a development aid).
use chronicle_game::GameEngine;
use chronicle_village::Village;

fn main() {
    let seeds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let out = std::env::args().nth(2);
    for players in 1..=5u8 {
        for seed in 0..seeds {
            match Village::simulate(seed, players) {
                Ok(log) => {
                    let bytes = log.to_string();
                    let v = Village::verdict(&Village::replay(bytes.as_bytes()));
                    let totals: Vec<i64> = v.players.iter().filter_map(|p| p.score.as_ref().map(|s| s.total)).collect();
                    println!(
                        "{players}p seed {seed}: {:?} {} entries, round {}, totals {totals:?} {:?}",
                        v.status,
                        log["entries"].as_array().map_or(0, Vec::len),
                        v.round_reached,
                        v.error.map(|e| e.message)
                    );
                    if let Some(dir) = &out {
                        let _ = std::fs::write(
                            format!("{dir}/sim-{players}p-{seed}.json"),
                            serde_json::to_string_pretty(&log).unwrap_or_default(),
                        );
                    }
                }
                Err(e) => println!("{players}p seed {seed}: error {e}"),
            }
        }
    }
}
