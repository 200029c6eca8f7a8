//! `chronicle analyse`: a log judged decision by decision by its game's search bot
//! (docs/analysis.md), as text for people or as one JSON object. Decisions are searched on all
//! cores (each from its own seed: the result does not depend on the number of cores).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use chronicle_game::analysis::{Analysis, MoveAnalysis};
use chronicle_game::{Engine, GameKind};
use indicatif::ProgressBar;

use crate::commands::{CommandError, Done, Outcome};

#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The analysis as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Playouts per decision (more is slower and surer; docs/analysis.md gives the default).
    #[arg(long)]
    pub budget: Option<u32>,
    /// Seed of the search: the same log, budget and seed always give the same analysis.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The log file; `-` reads standard input.
    pub file: PathBuf,
}

/// Runs `chronicle analyse`.
pub fn analyse_command(args: AnalyseArgs, stdin: &mut dyn Read, out: &mut dyn Write, progress: bool) -> Outcome {
    let bytes = if args.file.as_os_str() == "-" {
        let mut b = Vec::new();
        stdin.read_to_end(&mut b)?;
        b
    } else {
        std::fs::read(&args.file).map_err(|e| CommandError::Io(format!("{}: {e}", args.file.display())))?
    };
    let Some(kind) = chronicle_ingest::canonical::format_of(&bytes).and_then(|f| GameKind::from_format(&f)) else {
        // Why, in the replay's words (a log too large, not JSON, a format no game has).
        let verdict = chronicle_ingest::games::verdict_of(&bytes, None);
        let why = verdict
            .error
            .map_or_else(|| "not a log of a game Chronicle knows".to_owned(), |e| format!("{}: {}", e.code, e.message));
        return Err(CommandError::Usage(format!("{}: not analysed: {why}", args.file.display())));
    };
    if !kind.spec().capabilities.analysis {
        return Err(CommandError::Usage(format!("{} games are not analysed yet (docs/analysis.md)", kind.spec().name)));
    }
    let budget = args.budget.unwrap_or(chronicle_game::analysis::DEFAULT_BUDGET);
    if !(1..=chronicle_game::analysis::MAX_BUDGET).contains(&budget) {
        return Err(CommandError::Usage(format!(
            "--budget {budget}: from 1 to {} playouts per decision",
            chronicle_game::analysis::MAX_BUDGET
        )));
    }
    let engine = chronicle_ingest::games::engine(kind);
    let entries = engine.analysis_moves(&bytes).map_err(CommandError::Usage)?;
    let bar = crate::commands::import::progress_bar(entries.len() as u64, "decisions", progress);
    let moves = analyse_all(engine, &bytes, &entries, budget, args.seed, &bar).map_err(CommandError::Usage)?;
    bar.finish_and_clear();
    let names: Vec<String> = engine.verdict(&bytes).players.into_iter().map(|p| p.name).collect();
    let analysis = Analysis::new(engine.version(), budget, args.seed, &names, moves);
    if args.json {
        let text = serde_json::to_string(&analysis).map_err(|e| CommandError::Io(e.to_string()))?;
        writeln!(out, "{text}")?;
    } else {
        write_text(&analysis, kind, out)?;
    }
    Ok(Done::Success)
}

/// Every decision of `entries` analysed, in order, on all cores.
fn analyse_all(
    engine: &'static dyn Engine,
    log: &[u8],
    entries: &[usize],
    budget: u32,
    seed: u64,
    bar: &ProgressBar,
) -> Result<Vec<MoveAnalysis>, String> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Result<MoveAnalysis, String>>>> = Mutex::new(vec![None; entries.len()]);
    let workers = std::thread::available_parallelism().map_or(1, usize::from).min(entries.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&entry) = entries.get(i) else { break };
                let result =
                    engine.analyse_move(log, entry, budget, chronicle_game::rng::game_seed(seed, entry as u64));
                if let Ok(mut slots) = slots.lock() {
                    slots[i] = Some(result);
                }
                bar.inc(1);
            });
        }
    });
    let slots = slots.into_inner().map_err(|_| "a decision's search failed".to_owned())?;
    slots.into_iter().map(|s| s.unwrap_or_else(|| Err("a decision was not searched".to_owned()))).collect()
}

/// The analysis for people: each decision in words, marks and losses, then each player.
fn write_text(a: &Analysis, kind: GameKind, out: &mut dyn Write) -> Result<(), CommandError> {
    let name = |p: usize| a.players.get(p).map_or_else(|| format!("Player {}", p + 1), |s| s.name.clone());
    writeln!(
        out,
        "{} analysed by its strong bot at {} playouts a decision (seed {}, engine {}).",
        kind.spec().name,
        a.budget,
        a.seed,
        a.engine_version
    )?;
    writeln!(out, "Points are the mover's final points estimated by playouts, ± a 95% interval; the best move is the bot's best found at this budget, not a proof.")?;
    let mut round = 0;
    for m in &a.moves {
        if m.round != round {
            round = m.round;
            writeln!(out, "\nRound {round}")?;
        }
        let who = name(m.player);
        let est = |w: &chronicle_game::analysis::Worth| {
            format!("{:.1} ± {:.1} points, win chance {:.0}%", w.points, w.spread, 100.0 * w.win_chance)
        };
        writeln!(out, "  entry {} · {who} (seat {}): {}", m.entry, m.player + 1, m.played.words)?;
        if m.played_best {
            writeln!(out, "      the best move found: {}", est(&m.played))?;
            continue;
        }
        let verdict = match m.mark {
            Some(mark) => format!("{}: lost {:.1} ± {:.1} points", mark.words(), m.lost, m.lost_spread),
            None => format!("lost {:.1} ± {:.1} points (not marked)", m.lost, m.lost_spread),
        };
        writeln!(out, "      {}; {verdict}", est(&m.played))?;
        writeln!(out, "      best found: {} ({})", m.best.words, est(&m.best))?;
    }
    writeln!(out, "\nPlayers")?;
    for s in &a.players {
        writeln!(
            out,
            "  Seat {} {}: {}, accuracy {:.0}% (unmarked), {:.1} points lost a decision; {}, {}, {}",
            s.player + 1,
            s.name,
            count(s.moves, "decision"),
            s.accuracy,
            s.lost_per_move,
            count(s.inaccuracies, "inaccuracy"),
            count(s.mistakes, "mistake"),
            count(s.blunders, "blunder")
        )?;
    }
    Ok(())
}

/// `n` things in words: "1 mistake", "2 mistakes", "3 inaccuracies".
fn count(n: usize, one: &str) -> String {
    match (n, one.strip_suffix('y')) {
        (1, _) => format!("1 {one}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {one}s"),
    }
}
