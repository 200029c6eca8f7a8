//! `chronicle-fuzz`: runs a fuzzing campaign over the replay path and prints one JSON summary
//! line on stdout. Exit code 1 when any case panicked or hung, 2 on a usage or corpus error.
//!
//! Every failing case's log is written to `--out` with a text file describing the failure;
//! panicking logs are also minimized. `--case N` reruns a single case of the seed, to
//! reproduce a failure.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use chronicle_fuzz::campaign::HANG_LIMIT;
use chronicle_fuzz::minimize::minimize;
use chronicle_fuzz::{check, generate, run_on, Config, Corpus, Failure, FailureKind};
use clap::Parser;

#[derive(Parser, Debug)]
#[command(name = "chronicle-fuzz", about = "Fuzz the replay path with mutated logs of every game")]
struct Args {
    /// Number of cases (case indices 0..N).
    #[arg(long, default_value_t = 100_000)]
    cases: u64,
    /// Campaign seed: case i is a function of (seed, i) alone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores). The results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Where failing logs are written.
    #[arg(long, default_value = "fuzz-out")]
    out: PathBuf,
    /// Repository root holding tests/fixtures/games and examples/.
    #[arg(long, default_value = chronicle_fuzz::corpus::DEFAULT_ROOT)]
    root: PathBuf,
    /// Run only this case of the seed: write its log to --out and print its result.
    #[arg(long)]
    case: Option<u64>,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    progress_every: u64,
}

/// Failing logs minimized at most (each minimization replays the log many times).
const MINIMIZED: usize = 10;
const MINIMIZE_BUDGET: usize = 20_000;

fn main() -> ExitCode {
    let args = Args::parse();
    let corpus = match Corpus::load(&args.root) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("chronicle-fuzz: corpus: {e}");
            return ExitCode::from(2);
        }
    };
    match args.case {
        Some(index) => run_one(&corpus, &args, index),
        None => run_campaign(&corpus, &args),
    }
}

fn run_campaign(corpus: &Corpus, args: &Args) -> ExitCode {
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = Config {
        progress: Some(Duration::from_secs(args.progress_every.max(1))),
        stall_dir: Some(args.out.clone()),
        ..Config::new(args.cases, args.seed, threads)
    };
    eprintln!(
        "chronicle-fuzz: {} cases, seed {}, {threads} threads, {} seed logs, {} ids",
        args.cases,
        args.seed,
        corpus.logs.len(),
        corpus.ids.len()
    );
    let summary = run_on(corpus, &config);
    for (i, failure) in summary.failures.iter().enumerate() {
        keep_failure(corpus, args, failure, i < MINIMIZED);
    }
    println!("{}", summary.json());
    if summary.panics + summary.hangs > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Reruns one case, writes its log, prints its outcome.
fn run_one(corpus: &Corpus, args: &Args, index: u64) -> ExitCode {
    let case = generate(corpus, args.seed, index);
    let path = args.out.join(format!("case-seed{}-case{index}.json", args.seed));
    write_file(&path, &case.bytes);
    let checked = check(&case.bytes);
    let ops: Vec<&str> = case.operators.iter().map(|o| o.id()).collect();
    println!(
        "{}",
        serde_json::json!({
            "case": index,
            "seed": args.seed,
            "base": corpus.logs[case.base].name,
            "operators": ops,
            "outcome": checked.outcome.map(|o| o.id()),
            "game": checked.game.map(|g| g.id()),
            "code": checked.code,
            "ms": checked.elapsed.as_secs_f64() * 1e3,
            "panic": checked.panic.as_ref().map(|p| format!("{} at {}", p.message, p.location)),
            "log": path.display().to_string(),
        })
    );
    if let Some(p) = &checked.panic {
        eprintln!("{}", p.backtrace);
    }
    if checked.panic.is_some() || checked.elapsed > HANG_LIMIT {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes the failing log, a description (operators, panic message and backtrace), and for a
/// panic a minimized log that panics at the same place.
fn keep_failure(corpus: &Corpus, args: &Args, failure: &Failure, minimize_it: bool) {
    let case = generate(corpus, args.seed, failure.index);
    let stem = format!("{}-seed{}-case{}", failure.kind.id(), args.seed, failure.index);
    write_file(&args.out.join(format!("{stem}.json")), &case.bytes);
    let ops: Vec<&str> = case.operators.iter().map(|o| o.id()).collect();
    let mut text = format!(
        "{} in case {} of seed {} ({:.1} ms)\nbase log: {}\noperators: {}\nreproduce: chronicle-fuzz --seed {} --case {}\n",
        failure.kind.id(),
        failure.index,
        args.seed,
        failure.elapsed.as_secs_f64() * 1e3,
        corpus.logs[case.base].name,
        ops.join(", "),
        args.seed,
        failure.index,
    );
    if let Some(p) = &failure.panic {
        text.push_str(&format!("panic: {}\nat: {}\nbacktrace:\n{}\n", p.message, p.location, p.backtrace));
        if minimize_it && failure.kind == FailureKind::Panic {
            let location = p.location.clone();
            let mut same_panic = |b: &[u8]| check(b).panic.is_some_and(|q| q.location == location);
            let small = minimize(&case.bytes, MINIMIZE_BUDGET, &mut same_panic);
            write_file(&args.out.join(format!("{stem}-min.json")), &small);
        }
    }
    write_file(&args.out.join(format!("{stem}.txt")), text.as_bytes());
}

fn write_file(path: &Path, bytes: &[u8]) {
    let written = path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|_| std::fs::write(path, bytes));
    match written {
        Ok(()) => eprintln!("chronicle-fuzz: wrote {}", path.display()),
        Err(e) => eprintln!("chronicle-fuzz: could not write {}: {e}", path.display()),
    }
}
