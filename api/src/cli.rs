//! `chronicle` subcommands. Exit codes: 0 every log valid, 1 some log invalid, 2 usage or IO.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::commands::{replay, CommandError, Done, Outcome};

#[derive(Parser, Debug)]
#[command(
    name = "chronicle",
    version,
    about = "Verify and score recorded board games: Caverna (caverna-log/1), Village (village-log/1), Above and Below (above-and-below-log/1)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay logs and report whether each is complete, incomplete or invalid; each log goes to
    /// the engine its `format` names (Above and Below reports also say what was taken as
    /// declared: the trust report).
    Replay {
        /// One JSON object per log, one per line.
        #[arg(long)]
        json: bool,
        /// Print only one line of totals.
        #[arg(long)]
        summary: bool,
        /// Only read Caverna logs (envelope, setup and entry notation) without replaying them.
        #[arg(long)]
        parse_only: bool,
        /// For an invalid log, also list the legal alternatives to its illegal entry (up to 50,
        /// from the engine's generator).
        #[arg(long)]
        explain: bool,
        /// Log files, directories (every *.json and *.ndjson in them) and NDJSON files;
        /// `-` reads standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print the game state after an entry.
    State {
        /// The state as one JSON object.
        #[arg(long)]
        json: bool,
        /// The log file; `-` reads standard input.
        file: PathBuf,
        /// The state after entry N (0-based); default: after the last legal entry.
        #[arg(long)]
        at: Option<usize>,
    },
    /// Replay logs and store them (valid and invalid) in the game database; re-imported games
    /// are duplicates and change nothing.
    Import(crate::commands::import::ImportArgs),
    /// Replay every stored game with the current engine and report changed outcomes.
    Reverify(crate::commands::import::ReverifyArgs),
    /// Write stored games as a table (CSV, Parquet or NDJSON) for notebooks and spreadsheets.
    Export(crate::commands::export::ExportArgs),
    /// Judge every decision of a log with the game's search bot: what the move played and the
    /// best move found are worth, what each move cost, marks and each player's summary
    /// (docs/analysis.md).
    Analyse(crate::commands::analyse::AnalyseArgs),
    /// Write complete logs of games played by bots (the same arguments give the same bytes).
    Simulate(crate::commands::simulate::SimulateArgs),
    /// Run the GraphQL API server (POST /graphql, a query console at /graphiql).
    Serve(crate::server::config::ServeArgs),
    /// Manage API tokens (needed for mutations).
    #[command(subcommand)]
    Token(TokenCommand),
    /// Merge player identities (ratings and player pages count them as one player).
    #[command(subcommand)]
    Players(PlayersCommand),
    /// Print the GraphQL schema (SDL).
    Schema,
    /// Print the rules as the game's engine implements them, for players (docs/rules/<game>.md;
    /// Caverna's is generated from the engine's tables).
    Rules {
        /// The game, by id (`caverna`, `village`, `above-and-below`).
        #[arg(long, default_value = "caverna")]
        game: String,
    },
}

#[derive(Subcommand, Debug)]
enum TokenCommand {
    /// Create a token and print it (only its hash is stored; it cannot be shown again).
    Create {
        /// Who the token is for (recorded as the uploader of the games it submits).
        #[arg(long)]
        name: String,
        /// The token stops working this long after now: a number and a unit, `s`, `m`, `h` or
        /// `d` (`90d`, `12h`); without it, it works until revoked.
        #[arg(long, value_name = "DURATION", value_parser = crate::commands::tokens::parse_duration)]
        expires_in: Option<i64>,
        #[command(flatten)]
        db: crate::commands::DatabaseArg,
    },
    /// List the API tokens: id, name, created, expires, state (never the token itself).
    List {
        /// One JSON object per token.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        db: crate::commands::DatabaseArg,
    },
    /// Revoke an API token: a running server refuses it from its next request on.
    Revoke {
        /// The token's id (`chronicle token list`).
        id: i64,
        #[command(flatten)]
        db: crate::commands::DatabaseArg,
    },
}

#[derive(Subcommand, Debug)]
enum PlayersCommand {
    /// Make each ALIAS the player INTO. An identity is a key as the ratings table shows it
    /// (`id:…` for a log's player id, `name:…`) or a player's name.
    Merge {
        into: String,
        #[arg(required = true)]
        aliases: Vec<String>,
        #[command(flatten)]
        db: crate::commands::DatabaseArg,
    },
    /// Undo the merge of ALIAS: it is its own player again.
    Unmerge {
        alias: String,
        #[command(flatten)]
        db: crate::commands::DatabaseArg,
    },
    /// List every merged identity and the player it is.
    Aliases {
        /// One JSON object per alias.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        db: crate::commands::DatabaseArg,
    },
}

const EXIT_OK: i32 = 0;
const EXIT_INVALID: i32 = 1;
const EXIT_USAGE: i32 = 2;

/// The exit code of a command that ran.
fn exit_code(done: Done) -> i32 {
    match done {
        Done::Success => EXIT_OK,
        Done::Rejected => EXIT_INVALID,
    }
}

/// `chronicle rules --game <id>`: the engine's reference, through the registry.
fn rules(game: &str, out: &mut dyn Write) -> Outcome {
    let kind =
        chronicle_game::GameKind::from_id(game).ok_or_else(|| CommandError::Usage(format!("no game `{game}`")))?;
    let text = chronicle_ingest::games::engine(kind)
        .rules_reference()
        .ok_or_else(|| CommandError::Usage(format!("{} has no rules reference", kind.spec().name)))?;
    write!(out, "{text}")?;
    Ok(Done::Success)
}

/// Runs the command line `args` (program name first) against the given streams.
pub fn run(args: Vec<OsString>, stdin: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    run_with(args, stdin, out, err, false)
}

/// [`run`] for the `chronicle` binary: long commands (`simulate`) may also draw a progress bar
/// on the process's standard error when it is a terminal.
pub fn run_interactive(args: Vec<OsString>, stdin: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    run_with(args, stdin, out, err, true)
}

fn run_with(
    args: Vec<OsString>,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            let _ = if e.use_stderr() { err.write_all(text.as_bytes()) } else { out.write_all(text.as_bytes()) };
            return code;
        }
    };
    let result = match cli.command {
        Command::Replay { json, summary, parse_only, explain, paths } => {
            replay::replay(&paths, replay::Mode { json, summary, parse_only, explain }, stdin, out)
        }
        Command::State { json, file, at } => replay::state(&file, at, json, stdin, out),
        Command::Import(args) => crate::commands::import::import_command(args, stdin, out, err, progress),
        Command::Reverify(args) => crate::commands::import::reverify_command(args, out, err, progress),
        Command::Simulate(args) => crate::commands::simulate::simulate_command(args, out, err, progress),
        Command::Export(args) => crate::commands::export::export_command(args, out, err),
        Command::Analyse(args) => crate::commands::analyse::analyse_command(args, stdin, out, progress),
        Command::Serve(args) => crate::server::startup::serve(args, out),
        Command::Token(TokenCommand::Create { name, expires_in, db }) => {
            crate::commands::tokens::create(&name, expires_in, db.database_url, out)
        }
        Command::Token(TokenCommand::List { json, db }) => crate::commands::tokens::list(json, db.database_url, out),
        Command::Token(TokenCommand::Revoke { id, db }) => crate::commands::tokens::revoke(id, db.database_url, out),
        Command::Players(PlayersCommand::Merge { into, aliases, db }) => {
            crate::commands::players::merge(&into, &aliases, db.database_url, out)
        }
        Command::Players(PlayersCommand::Unmerge { alias, db }) => {
            crate::commands::players::unmerge(&alias, db.database_url, out)
        }
        Command::Players(PlayersCommand::Aliases { json, db }) => {
            crate::commands::players::aliases(json, db.database_url, out)
        }
        Command::Rules { game } => rules(&game, out),
        Command::Schema => writeln!(out, "{}", crate::server::graphql::sdl().trim_end())
            .map(|()| Done::Success)
            .map_err(CommandError::from),
    };
    match result {
        Ok(done) => exit_code(done),
        Err(message) => {
            let _ = writeln!(err, "chronicle: {message}");
            EXIT_USAGE
        }
    }
}
