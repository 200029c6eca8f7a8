//! `chronicle simulate`: complete logs of games played by bots, one `.json` file per game in a
//! directory or NDJSON on standard output. Caverna games (`caverna-log/1`, the default) are
//! played by `chronicle_caverna::bots` with the seat bots and furnishing set chosen here; Village
//! and Above and Below games by their engine's own simulator (`GameEngine::simulate`, through
//! the registry), whose bots and labelled synthetic component data the engine chooses. Games are
//! simulated on all cores and written in order; the same arguments always give byte-identical
//! logs.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use chronicle_caverna::bots::{self, BotChoice, BotKind};
use chronicle_caverna::notation::FurnishingSet;
use chronicle_game::GameKind;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// The game to play.
    #[arg(long, value_enum, default_value_t = GameArg::Caverna)]
    pub game: GameArg,
    /// Number of games.
    #[arg(long)]
    pub games: u64,
    /// Players per game: Caverna 1 (solo) to 7, Village 1 to 5, Above and Below 2 to 4.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=7))]
    pub players: u8,
    /// Seed of the run: game i is played with a seed derived from it and i.
    #[arg(long)]
    pub seed: u64,
    /// Caverna only: the bot of every seat (default `random`); `mixed` draws one of the three
    /// for each seat from the game's seed.
    #[arg(long, value_enum)]
    pub bot: Option<BotArg>,
    /// Caverna only: the furnishing tiles in play (default `full`).
    #[arg(long, value_enum)]
    pub furnishings: Option<FurnishingsArg>,
    /// A directory (created if missing) for one `game-NNNNNN.json` per game, or `-` for one log
    /// per line (NDJSON) on standard output.
    #[arg(long)]
    pub out: PathBuf,
}

/// The games whose engines have bots.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameArg {
    Caverna,
    Village,
    AboveAndBelow,
}

impl GameArg {
    fn kind(self) -> GameKind {
        match self {
            GameArg::Caverna => GameKind::Caverna,
            GameArg::Village => GameKind::Village,
            GameArg::AboveAndBelow => GameKind::AboveAndBelow,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotArg {
    Random,
    Weapons,
    Peaceful,
    Mixed,
}

impl BotArg {
    fn choice(self) -> BotChoice {
        match self {
            BotArg::Random => BotChoice::All(BotKind::Random),
            BotArg::Weapons => BotChoice::All(BotKind::Weapons),
            BotArg::Peaceful => BotChoice::All(BotKind::Peaceful),
            BotArg::Mixed => BotChoice::Mixed,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FurnishingsArg {
    Full,
    Introductory,
}

impl From<FurnishingsArg> for FurnishingSet {
    fn from(f: FurnishingsArg) -> FurnishingSet {
        match f {
            FurnishingsArg::Full => FurnishingSet::Full,
            FurnishingsArg::Introductory => FurnishingSet::Introductory,
        }
    }
}

/// Game `index` (0-based) of the run: its log as one line of JSON, or why the bots could not
/// finish it (a bug of the engine or the generator, reported with the game's seed). Every game
/// derives its seed from the run's seed the same way (`chronicle_caverna::bots::game_seed`).
pub fn simulate_one(args: &SimulateArgs, index: u64) -> Result<String, String> {
    let seed = bots::game_seed(args.seed, index);
    let log = match args.game {
        GameArg::Caverna => {
            let bot = args.bot.unwrap_or(BotArg::Random);
            let kinds = bots::seat_kinds(bot.choice(), usize::from(args.players), seed);
            let setup = bots::simulated_setup(&kinds, args.furnishings.unwrap_or(FurnishingsArg::Full).into(), seed);
            bots::simulate(&setup, &kinds, seed).map(|s| s.log_json()).map_err(|e| e.to_string())
        }
        other => chronicle_ingest::games::simulate(other.kind(), seed, args.players).map(|log| log.to_string()),
    };
    log.map_err(|e| format!("game {} (seed {seed}): {e}", index + 1))
}

/// Refuses arguments that do not fit the game: a player count outside its range, or the
/// Caverna-only choices for another game (whose engine picks its own bots and components).
fn check(args: &SimulateArgs) -> Result<(), String> {
    let spec = args.game.kind().spec();
    if !spec.players().contains(&args.players) {
        return Err(format!(
            "--players {}: {} is for {} to {} players",
            args.players, spec.name, spec.min_players, spec.max_players
        ));
    }
    if args.game != GameArg::Caverna && (args.bot.is_some() || args.furnishings.is_some()) {
        return Err(format!(
            "--bot and --furnishings are Caverna's; {} games are played by its engine's bots",
            spec.name
        ));
    }
    Ok(())
}

/// Where the logs go.
enum Sink<'a> {
    Dir { dir: PathBuf, width: usize },
    Stdout(&'a mut dyn Write),
}

impl Sink<'_> {
    fn write(&mut self, index: u64, log: &str) -> Result<(), String> {
        match self {
            Sink::Dir { dir, width } => {
                let path = dir.join(format!("game-{:0w$}.json", index + 1, w = *width));
                std::fs::write(&path, format!("{log}\n")).map_err(|e| format!("{}: {e}", path.display()))
            }
            Sink::Stdout(out) => writeln!(out, "{log}").map_err(|e| format!("writing standard output: {e}")),
        }
    }
}

fn progress_bar(len: u64, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    // Drawn only when standard error is a terminal (indicatif hides it otherwise).
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, {eta} left)") {
        bar.set_style(style);
    }
    bar
}

/// Runs `chronicle simulate`. Exit code 0, or 1 when some game could not be finished (each
/// such game is reported on `err` and left out).
pub fn simulate_command(
    args: SimulateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> Result<crate::cli::Done, String> {
    check(&args)?;
    let mut sink = if args.out.as_os_str() == "-" {
        Sink::Stdout(out)
    } else {
        std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
        // Names sort in game order: at least 6 digits, more when there are more games.
        Sink::Dir { dir: args.out.clone(), width: args.games.to_string().len().max(6) }
    };
    let bar = progress_bar(args.games, progress);
    let failed = run_ordered(&args, args.games, |index, result| {
        bar.inc(1);
        match result {
            Ok(log) => sink.write(index, &log).map(|_| false),
            Err(message) => {
                bar.suspend(|| writeln!(err, "chronicle: {message}")).map_err(|e| e.to_string())?;
                Ok(true)
            }
        }
    })?;
    bar.finish_and_clear();
    Ok(if failed > 0 { crate::cli::Done::Rejected } else { crate::cli::Done::Success })
}

/// Simulates games `0..n` on all cores (scoped threads taking the next game from a shared
/// counter) and hands each result to `write` in game order, on the calling thread. `write`
/// returns whether the game failed; an `Err` from it stops the run. Returns the failures.
fn run_ordered(
    args: &SimulateArgs,
    n: u64,
    mut write: impl FnMut(u64, Result<String, String>) -> Result<bool, String>,
) -> Result<u64, String> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(usize::try_from(n).unwrap_or(usize::MAX))
        .max(1);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(u64, Result<String, String>)>();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n || stop.load(Ordering::Relaxed) {
                    break;
                }
                if tx.send((i, simulate_one(args, i))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Result<String, String>> = BTreeMap::new();
        let mut due = 0u64;
        let mut failed = 0u64;
        for (i, result) in rx {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&due) {
                match write(due, result) {
                    Ok(f) => failed += u64::from(f),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                }
                due += 1;
            }
        }
        Ok(failed)
    })
}
