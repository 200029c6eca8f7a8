//! The answers of Chronicle's engines, for `scripts/compare-engines.sh`: built once against each
//! of two revisions, its output on the same logs is compared byte for byte.
//!
//! `answers FILE...`: for every log (a `.ndjson` file holds one per line), what each engine's
//! reading gives: parse-only results, the verdict, the final state, the states after 0, 5 and 40
//! entries and the ledger. `simulate GAMES`: that many simulated games per engine and player
//! count, one log per line (the corpus is written by one build only).

use std::io::Write;

use chronicle_above_and_below::AboveAndBelow;
use chronicle_caverna::Caverna;
use chronicle_game::{GameEngine, GameKind};
use chronicle_village::Village;

fn answers<E: GameEngine>(log: &[u8], out: &mut impl Write) -> std::io::Result<()> {
    let replay = E::replay(log);
    let json = |v: &serde_json::Value| serde_json::to_string(v).unwrap_or_default();
    writeln!(out, "verdict {}", serde_json::to_string(&E::verdict(&replay)).unwrap_or_default())?;
    writeln!(out, "state {:?}", E::state_view(&replay).map(|s| json(&s.state)))?;
    for n in [0, 5, 40] {
        writeln!(out, "at {n} {:?}", E::state_at(log, Some(n)).map(|s| json(&s.state)))?;
    }
    writeln!(out, "ledger {:?}", E::ledger(log))
}

fn logs(path: &str) -> std::io::Result<Vec<Vec<u8>>> {
    let bytes = std::fs::read(path)?;
    Ok(if path.ends_with(".ndjson") {
        bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
    } else {
        vec![bytes]
    })
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.first().map(String::as_str) {
        Some("simulate") => {
            let games: u64 = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(50);
            for kind in [GameKind::Caverna, GameKind::Village, GameKind::AboveAndBelow] {
                for players in kind.spec().players() {
                    for seed in 1..=games {
                        let log = match kind {
                            GameKind::Caverna => Caverna::simulate(seed, players),
                            GameKind::Village => Village::simulate(seed, players),
                            _ => AboveAndBelow::simulate(seed, players),
                        };
                        if let Ok(log) = log {
                            writeln!(out, "{log}")?;
                        }
                    }
                }
            }
        }
        Some("answers") => {
            for path in &args[1..] {
                for (i, log) in logs(path)?.iter().enumerate() {
                    writeln!(out, "== {path} {i}")?;
                    writeln!(out, "caverna parse {:?}", Caverna::parse_only(log))?;
                    writeln!(out, "village parse {:?}", Village::parse_only(log))?;
                    writeln!(out, "above-and-below parse {:?}", AboveAndBelow::parse_only(log))?;
                    let format = format_of(log);
                    match format.as_deref().and_then(GameKind::from_format) {
                        Some(GameKind::Village) => answers::<Village>(log, &mut out)?,
                        Some(GameKind::AboveAndBelow) => {
                            answers::<AboveAndBelow>(log, &mut out)?;
                            let trust = chronicle_above_and_below::trust::report(&AboveAndBelow::replay(log));
                            writeln!(out, "trust {trust}")?;
                        }
                        _ => answers::<Caverna>(log, &mut out)?,
                    }
                }
            }
        }
        _ => eprintln!("usage: compare-engines simulate GAMES | answers FILE..."),
    }
    out.flush()
}

/// The log's `format`, when it is a JSON object with a string `format`.
fn format_of(log: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(log).ok()?;
    value.get("format")?.as_str().map(str::to_owned)
}
