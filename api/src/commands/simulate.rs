//! `chronicle simulate`: complete logs of games played by bots, one `.json` file per game in a
//! directory or NDJSON on standard output. Every game is played by its engine's simulator
//! through the registry (`GameEngine::simulate_with`), with the bots and variant its spec
//! offers (`GameSpec::bots`, `GameSpec::variants`; an engine that seats its own bots takes no
//! choice) and labelled synthetic component data where the engine needs it. Games are
//! simulated on all cores and written in order; the same arguments always give byte-identical
//! logs.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use chronicle_game::{pool, GameKind, Simulation};

use crate::commands::CommandError;

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// The game to play, by id (`caverna`, `village`, `above-and-below`).
    #[arg(long, value_parser = game_kind, default_value = "caverna")]
    pub game: GameKind,
    /// Number of games.
    #[arg(long)]
    pub games: u64,
    /// Players per game, within the game's range (Caverna 1 to 7, Village 1 to 5, Above and
    /// Below 2 to 4).
    #[arg(long)]
    pub players: u8,
    /// Seed of the run: game i is played with a seed derived from it and i.
    #[arg(long)]
    pub seed: u64,
    /// The bot of every seat, for a game that offers a choice (Caverna: `random`, the default,
    /// `weapons`, `peaceful`, `mixed`, which draws one of the first three per seat from the
    /// game's seed, or `strong`, the search bot), or one bot per seat separated by commas, in
    /// seat order (`strong,mixed,mixed,mixed`).
    #[arg(long, conflicts_with = "pool")]
    pub bot: Option<String>,
    /// The strong bot's playouts per decision (docs/analysis.md gives the default and what a
    /// budget costs), for a game whose engine has it.
    #[arg(long, conflicts_with = "pool")]
    pub budget: Option<u32>,
    /// Seats players drawn from a pool of this many named bot players (each with a stable name,
    /// a bot of the game and a strength: docs/statistics.md "Simulations that can be
    /// analysed"), in a random order each game, so that skill, seat and strategy vary apart.
    #[arg(long)]
    pub pool: Option<usize>,
    /// With `--pool`: a planted experiment on a tile (by its printed name): in every game one
    /// strategy seat builds it whenever it can and the others never choose it (Caverna).
    #[arg(long, requires = "pool")]
    pub plant: Option<String>,
    /// The variant in play, for a game that has variants (Caverna's furnishing set: `full`, the
    /// default, or `introductory`).
    #[arg(long, alias = "furnishings")]
    pub variant: Option<String>,
    /// A directory (created if missing) for one `game-NNNNNN.json` per game, or `-` for one log
    /// per line (NDJSON) on standard output.
    #[arg(long)]
    pub out: PathBuf,
}

/// `--game`: a game of this build, by id.
fn game_kind(id: &str) -> Result<GameKind, String> {
    GameKind::from_id(id).ok_or_else(|| {
        let ids: Vec<&str> = GameKind::ALL.iter().map(|k| k.id()).collect();
        format!("no game `{id}`; the games are {}", ids.join(", "))
    })
}

/// Game `index` (0-based) of the run: its log as one line of JSON, or why the bots could not
/// finish it (a bug of the engine or the generator, reported with the game's seed).
pub fn simulate_one(args: &SimulateArgs, index: u64) -> Result<String, String> {
    let seed = chronicle_game::rng::game_seed(args.seed, index);
    let seats = match args.pool {
        Some(size) => {
            let members = pool::pool(args.game.spec().pool_bots, size);
            let seats = pool::seating(&members, usize::from(args.players), seed, args.plant.as_deref());
            Some(seats.ok_or_else(|| format!("a pool of {size} cannot fill {} seats", args.players))?)
        }
        None => None,
    };
    let choice = Simulation {
        bot: args.bot.as_deref(),
        variant: args.variant.as_deref(),
        seats: seats.as_deref(),
        budget: args.budget,
    };
    chronicle_ingest::games::engine(args.game)
        .simulate_with(seed, args.players, &choice)
        .map(|log| log.to_string())
        .map_err(|e| format!("game {} (seed {seed}): {e}", index + 1))
}

/// Refuses arguments that do not fit the game: a player count outside its range, a bot or a
/// variant it does not offer.
fn check(args: &SimulateArgs) -> Result<(), String> {
    let spec = args.game.spec();
    if !spec.players().contains(&args.players) {
        return Err(format!(
            "--players {}: {} is for {} to {} players",
            args.players, spec.name, spec.min_players, spec.max_players
        ));
    }
    if let Some(bot) = args.bot.iter().flat_map(|b| b.split(',')).map(str::trim).find(|b| !spec.bots.contains(b)) {
        return Err(match spec.bots {
            [] => format!("--bot {bot}: {} games are played by its engine's own bots", spec.name),
            bots => format!("--bot {bot}: {}'s bots are {}", spec.name, bots.join(", ")),
        });
    }
    if let Some(bots) = args.bot.as_deref().filter(|b| b.contains(',')) {
        let named = bots.split(',').count();
        if named != usize::from(args.players) {
            return Err(format!("--bot {bots}: {named} bots named for {} seats", args.players));
        }
    }
    if let Some(budget) = args.budget {
        if !spec.capabilities.analysis {
            return Err(format!("--budget: {} has no search bot", spec.name));
        }
        if budget == 0 {
            return Err("--budget 0: the strong bot needs at least one playout per decision".to_owned());
        }
    }
    if let Some(size) = args.pool {
        if spec.pool_bots.is_empty() {
            return Err(format!("--pool: {}'s simulator takes no pool", spec.name));
        }
        if size < usize::from(args.players) || size > pool::MAX_POOL {
            return Err(format!(
                "--pool {size}: a pool has from --players ({}) to {} members",
                args.players,
                pool::MAX_POOL
            ));
        }
    }
    if let Some(variant) = args.variant.as_deref().filter(|v| !spec.variants.contains(v)) {
        return Err(match spec.variants {
            [] => format!("--variant {variant}: {} has no variants", spec.name),
            variants => format!("--variant {variant}: {}'s variants are {}", spec.name, variants.join(", ")),
        });
    }
    Ok(())
}

/// Where the logs go.
enum Sink<'a> {
    Dir { dir: PathBuf, width: usize },
    Stdout(&'a mut dyn Write),
}

impl Sink<'_> {
    fn write(&mut self, index: u64, log: &str) -> Result<(), CommandError> {
        match self {
            Sink::Dir { dir, width } => {
                let path = dir.join(format!("game-{:0w$}.json", index + 1, w = *width));
                std::fs::write(&path, format!("{log}\n"))
                    .map_err(|e| CommandError::Io(format!("{}: {e}", path.display())))
            }
            Sink::Stdout(out) => {
                writeln!(out, "{log}").map_err(|e| CommandError::Io(format!("writing standard output: {e}")))
            }
        }
    }
}

/// Runs `chronicle simulate`. Exit code 0, or 1 when some game could not be finished (each
/// such game is reported on `err` and left out).
pub fn simulate_command(
    args: SimulateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> crate::commands::Outcome {
    check(&args).map_err(CommandError::Usage)?;
    if args.plant.is_some() {
        // A tile the game does not have fails every game alike: said once, before the run.
        simulate_one(&args, 0).map_err(|e| CommandError::Usage(format!("--plant: {e}")))?;
    }
    let mut sink = if args.out.as_os_str() == "-" {
        Sink::Stdout(out)
    } else {
        std::fs::create_dir_all(&args.out).map_err(|e| CommandError::Io(format!("{}: {e}", args.out.display())))?;
        // Names sort in game order: at least 6 digits, more when there are more games.
        Sink::Dir { dir: args.out.clone(), width: args.games.to_string().len().max(6) }
    };
    let bar = crate::commands::import::progress_bar(args.games, "games", progress);
    let failed = run_ordered(&args, args.games, |index, result| {
        bar.inc(1);
        match result {
            Ok(log) => sink.write(index, &log).map(|_| false),
            Err(message) => {
                bar.suspend(|| writeln!(err, "chronicle: {message}"))?;
                Ok(true)
            }
        }
    })?;
    bar.finish_and_clear();
    Ok(if failed > 0 { crate::commands::Done::Rejected } else { crate::commands::Done::Success })
}

/// Simulates games `0..n` on all cores (scoped threads taking the next game from a shared
/// counter) and hands each result to `write` in game order, on the calling thread. `write`
/// returns whether the game failed; an `Err` from it stops the run. Returns the failures.
fn run_ordered(
    args: &SimulateArgs,
    n: u64,
    mut write: impl FnMut(u64, Result<String, String>) -> Result<bool, CommandError>,
) -> Result<u64, CommandError> {
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
