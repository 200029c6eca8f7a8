//! Simulates games on one core and reports the speed and the bots' scores (a quick
//! measurement, not a benchmark): `cargo run --release -p chronicle-caverna --example simulate
//! -- [random|weapons|peaceful|mixed] [PLAYERS] [GAMES] [SEED] [check] [intro] [log]`; `check` also
//! replays every log and compares the final state (not timed separately); `log` writes every
//! game's log as one line of JSON to standard output, exactly the NDJSON of
//! `chronicle simulate --out -` (same engine calls), and the summary to standard error.
use chronicle_caverna::bots::{game_seed, seat_kinds, simulate, simulated_setup, BotChoice, BotKind};
use chronicle_caverna::notation::FurnishingSet;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let choice = match args.get(1).map(String::as_str) {
        None | Some("mixed") => BotChoice::Mixed,
        Some(id) => match BotKind::from_id(id) {
            Some(k) => BotChoice::All(k),
            None => return eprintln!("unknown bot {id}"),
        },
    };
    let players: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let games: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let check = args.iter().any(|a| a == "check");
    let log = args.iter().any(|a| a == "log");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let set = if args.iter().any(|a| a == "intro") { FurnishingSet::Introductory } else { FurnishingSet::Full };
    let t = std::time::Instant::now();
    let (mut entries, mut begging) = (0usize, 0u64);
    let mut totals: std::collections::BTreeMap<&str, (i64, i64, usize)> = Default::default();
    for i in 0..games {
        let s = game_seed(seed, i);
        let kinds = seat_kinds(choice, players, s);
        let setup = simulated_setup(&kinds, set, s);
        match simulate(&setup, &kinds, s) {
            Ok(sim) => {
                entries += sim.entries.len();
                if log {
                    writeln!(out, "{}", sim.log_json()).expect("writing standard output");
                }
                let (scores, _) = sim.game.results().unwrap_or_default();
                for ((k, r), p) in kinds.iter().zip(&scores).zip(sim.game.players()) {
                    let t = totals.entry(k.id()).or_default();
                    t.0 += r.score.total;
                    t.1 += 1;
                    t.2 += p.dwarfs.len();
                }
                if check {
                    let r = chronicle_caverna::replay(sim.log_json().as_bytes());
                    let same = r.game.as_ref().is_some_and(|g| g.players() == sim.game.players());
                    if r.status != chronicle_caverna::Status::Complete || !same || !r.claimed_mismatches.is_empty() {
                        eprintln!("game {i} (seed {s}): replay {:?} {:?} same state {same}", r.status, r.error);
                    }
                }
                begging += sim.game.players().iter().map(|p| u64::from(p.begging)).sum::<u64>();
            }
            Err(e) => eprintln!("game {i} (seed {s}): {e}"),
        }
    }
    drop(out);
    let secs = t.elapsed().as_secs_f64();
    let mut summary = format!(
        "{games} games of {players} in {secs:.2} s: {:.1} games/s, {:.0} entries/game, {:.2} begging markers/player",
        games as f64 / secs,
        entries as f64 / games as f64,
        begging as f64 / (games as f64 * players as f64)
    ) + "\n";
    for (k, (sum, n, dwarfs)) in totals {
        summary += &format!(
            "  {k}: mean score {:.1}, {:.2} dwarfs, over {n} seats\n",
            sum as f64 / n as f64,
            dwarfs as f64 / n as f64
        );
    }
    if log {
        eprint!("{summary}");
    } else {
        print!("{summary}");
    }
}
