//! A campaign: cases `0..cases` of one seed spread over scoped threads, tallied into a
//! [`Summary`].
//!
//! Thread `t` of `T` runs the cases `t, t + T, t + 2T, …`: disjoint, together all of them,
//! and each case is a function of `(seed, index)` alone, so every count in the summary
//! (outcomes, error codes, operators, which cases failed) is the same for any thread count;
//! only the timings differ.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::corpus::{Corpus, CorpusError, DEFAULT_ROOT};
use crate::harness::{check, Checked, Outcome, PanicReport};
use crate::mutate::{generate, Operator};

/// A case slower than this is a hang.
pub const HANG_LIMIT: Duration = Duration::from_secs(1);

/// Failures kept in full in the summary (all are counted).
const KEPT_FAILURES: usize = 100;

/// How a campaign runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub cases: u64,
    pub seed: u64,
    pub threads: usize,
    /// Print a progress line to stderr about every this often; `None` for silence.
    pub progress: Option<Duration>,
    /// A case still running after this long is reported on stderr while it runs (it may
    /// never end), and its log is written to `stall_dir` when set.
    pub stall_after: Duration,
    pub stall_dir: Option<PathBuf>,
}

impl Config {
    pub fn new(cases: u64, seed: u64, threads: usize) -> Config {
        Config {
            cases,
            seed,
            threads: threads.max(1),
            progress: None,
            stall_after: Duration::from_secs(30),
            stall_dir: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    Panic,
    Hang,
}

impl FailureKind {
    pub fn id(self) -> &'static str {
        match self {
            FailureKind::Panic => "panic",
            FailureKind::Hang => "hang",
        }
    }
}

/// One failing case; its log is `generate(corpus, seed, index).bytes`.
#[derive(Debug)]
pub struct Failure {
    pub index: u64,
    pub kind: FailureKind,
    pub elapsed: Duration,
    pub panic: Option<PanicReport>,
}

/// What a campaign found.
#[derive(Debug)]
pub struct Summary {
    pub seed: u64,
    pub threads: usize,
    pub corpus_logs: usize,
    pub cases: u64,
    pub panics: u64,
    pub hangs: u64,
    pub max_case: Duration,
    pub slowest_case: u64,
    /// Replay + report time, summed over the cases.
    pub case_time: Duration,
    pub wall: Duration,
    /// Indexed by [`Outcome::index`].
    pub outcomes: [u64; 4],
    /// Every error code seen (of every game), most frequent first (ties by code).
    pub error_codes: Vec<(String, u64)>,
    /// Per game (its id; `none` for cases whose format names no game, which every engine
    /// judged): the outcomes of its cases, indexed by [`Outcome::index`]; by game id.
    pub games: Vec<(&'static str, [u64; 4])>,
    /// Indexed by [`Operator::index`]: how often each operator was applied.
    pub operators: [u64; Operator::ALL.len()],
    /// The first failures by case index (at most 100).
    pub failures: Vec<Failure>,
}

impl Summary {
    pub fn outcome(&self, o: Outcome) -> u64 {
        self.outcomes[o.index()]
    }

    /// The outcomes of the cases of game `id` (`none`: of no game).
    pub fn game_outcomes(&self, id: &str) -> [u64; 4] {
        self.games.iter().find(|(g, _)| *g == id).map_or([0; 4], |(_, o)| *o)
    }

    pub fn mean_case(&self) -> Duration {
        let n = u32::try_from(self.cases.max(1)).unwrap_or(u32::MAX);
        self.case_time / n
    }

    pub fn cases_per_second(&self) -> f64 {
        self.cases as f64 / self.wall.as_secs_f64().max(1e-9)
    }

    /// The one-line JSON summary of the binary.
    pub fn json(&self) -> Value {
        let outcomes: serde_json::Map<String, Value> =
            Outcome::ALL.iter().map(|o| (o.id().to_owned(), json!(self.outcome(*o)))).collect();
        let codes: Vec<Value> =
            self.error_codes.iter().take(10).map(|(c, n)| json!({ "code": c, "count": n })).collect();
        let games: serde_json::Map<String, Value> = self
            .games
            .iter()
            .map(|(g, o)| {
                let by: serde_json::Map<String, Value> =
                    Outcome::ALL.iter().map(|x| (x.id().to_owned(), json!(o[x.index()]))).collect();
                ((*g).to_owned(), Value::Object(by))
            })
            .collect();
        let operators: serde_json::Map<String, Value> =
            Operator::ALL.iter().map(|o| (o.id().to_owned(), json!(self.operators[o.index()]))).collect();
        json!({
            "seed": self.seed,
            "threads": self.threads,
            "corpus_logs": self.corpus_logs,
            "cases": self.cases,
            "panics": self.panics,
            "hangs": self.hangs,
            "hang_limit_ms": HANG_LIMIT.as_millis() as u64,
            "max_case_ms": round3(self.max_case.as_secs_f64() * 1e3),
            "slowest_case": self.slowest_case,
            "mean_case_us": round3(self.mean_case().as_secs_f64() * 1e6),
            "wall_seconds": round3(self.wall.as_secs_f64()),
            "cases_per_second": self.cases_per_second().round(),
            "outcomes": outcomes,
            "games": games,
            "error_codes_top10": codes,
            "operators": operators,
            "failures": self.failures.iter().map(|f| json!({
                "case": f.index,
                "kind": f.kind.id(),
                "ms": round3(f.elapsed.as_secs_f64() * 1e3),
                "panic": f.panic.as_ref().map(|p| format!("{} at {}", p.message, p.location)),
            })).collect::<Vec<_>>(),
        })
    }
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// Runs cases `0..cases` with `seed` on `threads` threads over the standard corpus of the
/// repository this crate was built in.
pub fn run(cases: u64, seed: u64, threads: usize) -> Result<Summary, CorpusError> {
    let corpus = Corpus::load(std::path::Path::new(DEFAULT_ROOT))?;
    Ok(run_on(&corpus, &Config::new(cases, seed, threads)))
}

/// Counts of one thread, merged at the end.
#[derive(Default)]
struct Tally {
    cases: u64,
    panics: u64,
    hangs: u64,
    max_case: Duration,
    slowest_case: u64,
    case_time: Duration,
    outcomes: [u64; 4],
    codes: HashMap<String, u64>,
    games: HashMap<&'static str, [u64; 4]>,
    operators: [u64; Operator::ALL.len()],
    failures: Vec<Failure>,
}

impl Tally {
    fn add(&mut self, index: u64, operators: &[Operator], checked: Checked) {
        self.cases += 1;
        self.case_time += checked.elapsed;
        // Ties go to the lowest index, so the slowest case does not depend on the threads.
        if checked.elapsed > self.max_case || (checked.elapsed == self.max_case && index < self.slowest_case) {
            self.max_case = checked.elapsed;
            self.slowest_case = index;
        }
        operators.iter().for_each(|o| self.operators[o.index()] += 1);
        if let Some(outcome) = checked.outcome {
            self.outcomes[outcome.index()] += 1;
            self.games.entry(checked.game.map_or("none", |g| g.id())).or_default()[outcome.index()] += 1;
        }
        if let Some(code) = checked.code {
            *self.codes.entry(code).or_default() += 1;
        }
        let kind = match (&checked.panic, checked.elapsed > HANG_LIMIT) {
            (Some(_), _) => FailureKind::Panic,
            (None, true) => FailureKind::Hang,
            (None, false) => return,
        };
        match kind {
            FailureKind::Panic => self.panics += 1,
            FailureKind::Hang => self.hangs += 1,
        }
        if self.failures.len() < KEPT_FAILURES {
            self.failures.push(Failure { index, kind, elapsed: checked.elapsed, panic: checked.panic });
        }
    }

    fn merge(&mut self, other: Tally) {
        self.cases += other.cases;
        self.panics += other.panics;
        self.hangs += other.hangs;
        self.case_time += other.case_time;
        if other.max_case > self.max_case || (other.max_case == self.max_case && other.slowest_case < self.slowest_case)
        {
            self.max_case = other.max_case;
            self.slowest_case = other.slowest_case;
        }
        (0..4).for_each(|i| self.outcomes[i] += other.outcomes[i]);
        (0..Operator::ALL.len()).for_each(|i| self.operators[i] += other.operators[i]);
        for (code, n) in other.codes {
            *self.codes.entry(code).or_default() += n;
        }
        for (game, outcomes) in other.games {
            let mine = self.games.entry(game).or_default();
            (0..4).for_each(|i| mine[i] += outcomes[i]);
        }
        self.failures.extend(other.failures);
    }
}

/// State shared between the workers and the watching thread.
struct Shared {
    done: AtomicU64,
    failures: AtomicU64,
    /// Per worker: the case it runs and when it started (ns since the campaign start + 1;
    /// 0 while between cases).
    current: Vec<(AtomicU64, AtomicU64)>,
}

/// Runs the campaign of `config` over `corpus`.
pub fn run_on(corpus: &Corpus, config: &Config) -> Summary {
    let threads = config.threads.max(1);
    let start = Instant::now();
    let shared = Shared {
        done: AtomicU64::new(0),
        failures: AtomicU64::new(0),
        current: (0..threads).map(|_| (AtomicU64::new(0), AtomicU64::new(0))).collect(),
    };
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let shared = &shared;
                scope.spawn(move || work(corpus, config, t, threads, start, shared))
            })
            .collect();
        watch(config, corpus, start, &shared, || workers.iter().all(|w| w.is_finished()));
        // A worker that panicked outside a case (a bug of this crate) loses its tally; the
        // case count of the summary then shows it.
        workers.into_iter().filter_map(|w| w.join().ok()).collect()
    });
    let mut total = Tally::default();
    tallies.into_iter().for_each(|t| total.merge(t));
    summarize(total, corpus, config, start.elapsed())
}

/// The cases of worker `t`: `t, t + threads, …`.
fn work(corpus: &Corpus, config: &Config, t: usize, threads: usize, start: Instant, shared: &Shared) -> Tally {
    let mut tally = Tally::default();
    let (current_case, current_start) = &shared.current[t];
    let mut index = t as u64;
    while index < config.cases {
        let case = generate(corpus, config.seed, index);
        current_case.store(index, Ordering::Relaxed);
        current_start.store(start.elapsed().as_nanos() as u64 + 1, Ordering::Relaxed);
        let checked = check(&case.bytes);
        current_start.store(0, Ordering::Relaxed);
        if checked.panic.is_some() || checked.elapsed > HANG_LIMIT {
            shared.failures.fetch_add(1, Ordering::Relaxed);
        }
        tally.add(index, &case.operators, checked);
        shared.done.fetch_add(1, Ordering::Relaxed);
        index += threads as u64;
    }
    tally
}

/// Until `finished()`: prints progress and reports cases that run for too long.
fn watch(config: &Config, corpus: &Corpus, start: Instant, shared: &Shared, finished: impl Fn() -> bool) {
    let mut last_progress = Instant::now();
    let mut reported_stalls: Vec<u64> = Vec::new();
    while !finished() {
        std::thread::sleep(Duration::from_millis(50));
        if let Some(every) = config.progress {
            if last_progress.elapsed() >= every {
                last_progress = Instant::now();
                eprintln!("{}", progress_line(config, shared, start.elapsed()));
            }
        }
        for (case, started) in &shared.current {
            let (index, since) = (case.load(Ordering::Relaxed), started.load(Ordering::Relaxed));
            let running = start.elapsed().saturating_sub(Duration::from_nanos(since.saturating_sub(1)));
            if since != 0 && running >= config.stall_after && !reported_stalls.contains(&index) {
                reported_stalls.push(index);
                report_stall(config, corpus, index, running);
            }
        }
    }
}

fn progress_line(config: &Config, shared: &Shared, elapsed: Duration) -> String {
    let done = shared.done.load(Ordering::Relaxed);
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
    let left = config.cases.saturating_sub(done) as f64 / rate.max(1e-9);
    format!(
        "fuzz: {done}/{} cases ({:.1}%), {rate:.0} cases/s, {} failures, {:.0} s elapsed, ~{left:.0} s left",
        config.cases,
        100.0 * done as f64 / config.cases.max(1) as f64,
        shared.failures.load(Ordering::Relaxed),
        elapsed.as_secs_f64(),
    )
}

/// A case that may never end: say so now, and keep its log, since the summary may never come.
fn report_stall(config: &Config, corpus: &Corpus, index: u64, running: Duration) {
    eprintln!("fuzz: case {index} (seed {}) has run for {:.0} s", config.seed, running.as_secs_f64());
    if let Some(dir) = &config.stall_dir {
        let path = dir.join(format!("stall-seed{}-case{index}.json", config.seed));
        let written = std::fs::create_dir_all(dir)
            .and_then(|_| std::fs::write(&path, generate(corpus, config.seed, index).bytes));
        match written {
            Ok(()) => eprintln!("fuzz: its log is {}", path.display()),
            Err(e) => eprintln!("fuzz: could not write {}: {e}", path.display()),
        }
    }
}

fn summarize(mut total: Tally, corpus: &Corpus, config: &Config, wall: Duration) -> Summary {
    total.failures.sort_by_key(|f| f.index);
    total.failures.truncate(KEPT_FAILURES);
    let mut error_codes: Vec<(String, u64)> = total.codes.into_iter().collect();
    error_codes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut games: Vec<(&'static str, [u64; 4])> = total.games.into_iter().collect();
    games.sort_unstable();
    Summary {
        seed: config.seed,
        threads: config.threads.max(1),
        corpus_logs: corpus.logs.len(),
        cases: total.cases,
        panics: total.panics,
        hangs: total.hangs,
        max_case: total.max_case,
        slowest_case: total.slowest_case,
        case_time: total.case_time,
        wall,
        outcomes: total.outcomes,
        error_codes,
        games,
        operators: total.operators,
        failures: total.failures,
    }
}
