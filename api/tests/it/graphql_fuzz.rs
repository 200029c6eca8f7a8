//! Fuzzing the GraphQL request path: mutated documents and variables go through exactly what
//! the service runs after HTTP (`graphql::run`: the document guard, then the executor with the
//! real schema over a real SQLite store holding games — a 2 MB one among them, and one of each
//! game), in process. Documents aim aliases, fragments and variables at every field that reads
//! or replays a stored or sent log. Every case must answer within a second of wall time and of
//! the process's CPU, without a panic, and with a code on every error; the process's peak
//! memory may not rise by more than 256 MiB over the campaign.
//!
//! The test runs a fixed-seed slice (CI). A longer campaign, in release mode:
//!
//! ```sh
//! CHRONICLE_GRAPHQL_FUZZ_CASES=200000 cargo test --release -p chronicle-api --test it graphql_fuzz -- --nocapture
//! ```
//! (`CHRONICLE_GRAPHQL_FUZZ_SEED` picks another seed.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use chronicle_api::server::graphql::{self, Caller, Limits};
use chronicle_service::admission::AdmissionLimits;
use chronicle_service::Service;
use chronicle_store::{self, Bearer};

use crate::common::*;

/// SplitMix64: the fuzzer's only randomness, from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Valid documents covering every root field, fragments, aliases and directives.
const SEEDS: &[&str] = &[
    "{ games(first: 5) { edges { cursor node { id status round playerCount players { name winner rank score { total } } } } pageInfo { hasNextPage endCursor } } }",
    "query($id: ID!) { game(id: $id) { id status error { entry code message } meta { id tournament playedAt } players { seat name score { grain rubies total } } } }",
    "query($id: ID!, $n: Int) { replay(gameId: $id, atEntry: $n) { round phase state } }",
    "query($t: ID!) { tournament(id: $t) { name games { id } standings { rank player wins } verification { allComplete allLegal } } }",
    "query($l: JSON!) { verifyLog(log: $l) { status round error { code entry } players { name score { total } } } }",
    "{ furnishingStats { tile playerGames winRate ciLow ciHigh } weaponStats { strategy playerGames winRate } }",
    "{ seatStats { firstPlayerOverall { __typename } } actionSpaceStats { placements rounds { __typename } } }",
    "query Q($f: GameFilter) { a: games(filter: $f, first: 2) { edges { node { ...G } } } b: games(first: 1) { edges { node { ...G @skip(if: true) } } } } fragment G on Game { id status __typename }",
    "{ games { edges { node { ... on Game { id players { name } } } } } __typename }",
    "mutation($l: JSON!) { submitGame(log: $l) { duplicate game { id status } } }",
    "mutation { createTournament(name: \"Cup\") { tournament { id } organizerToken } }",
    "query { __schema { types { name fields { name } } } }",
    // Work that starts from stored games (the largest stored log is about 2 MB): aliases,
    // fragments and variables aimed at every field that reads or replays a log.
    "query($id: ID!, $n: Int) { a: replay(gameId: $id) { state } b: replay(gameId: $id, atEntry: $n) { round phase } c: replay(gameId: $id) { round } }",
    "query($id: ID!) { a: game(id: $id) { log ledger } b: game(id: $id) { log } c: game(id: $id) { ledger alternatives(limit: 1000) trust status } }",
    "query($id: ID!) { ...R ...S } fragment R on Query { a: replay(gameId: $id) { state } b: game(id: $id) { ...L } } fragment S on Query { c: game(id: $id) { ...L } } fragment L on Game { log ledger trust alternatives }",
    "query($l: JSON!, $d: JSON) { a: legalEntries(log: $l, limit: 1000) b: entrySteps(log: $l, draft: $d) c: legalEntries(log: $l) d: verifyLog(log: $l) { alternatives trust } }",
    "{ games(first: 100) { edges { node { id log ledger alternatives trust } } } }",
];

/// Pieces spliced into documents.
const PIECES: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "...",
    "...G",
    "... on Query { __typename }",
    "@skip(if: true)",
    "@include(if: $x)",
    "@deprecated",
    "__typename",
    "games",
    "game",
    "edges",
    "node",
    "id",
    "first: 100",
    "first: -1",
    "first: 2147483648",
    "after: \"x\"",
    "filter: { playerName: \"\\u0000\" }",
    "filter: { playerCount: 99 }",
    "a: ",
    "$l",
    "$id",
    ": ",
    "\"\"\"block\"\"\"",
    "\"\\uD800\"",
    "1e999",
    "-0",
    "null",
    "true",
    "fragment F on Query { games { edges { cursor } } }",
    "fragment G on Game { ...G }",
    "query",
    "mutation",
    "subscription",
    "verifyLog(log: $l) { status }",
    "replay(gameId: $id) { state }",
    "game(id: $id) { log ledger }",
    "a: game(id: $id) { alternatives trust }",
    "#",
    "\n",
    ",",
    "é",
    "\u{0}",
    "\u{10FFFF}",
    "$",
    "!",
    "=",
    "|",
    "&",
];

/// Variables, good and bad.
fn variables(rng: &mut Rng, log: &Value) -> Value {
    match rng.below(8) {
        0 => json!({}),
        1 => {
            json!({ "id": (1 + rng.below(STORED)).to_string(), "t": "1", "n": rng.below(500), "l": log, "d": { "player": 0 } })
        }
        2 => json!({ "id": "-1", "t": "abc", "n": -5, "l": "not a log" }),
        3 => json!({ "l": { "format": "caverna-log/1" }, "id": 1e300, "f": { "status": "NOPE" } }),
        4 => {
            let mut deep = json!(1);
            for _ in 0..rng.below(120) {
                deep = json!([deep]);
            }
            json!({ "l": deep, "f": { "playerName": deep } })
        }
        5 => json!({ "l": log, "f": { "playerCount": rng.below(10), "playedFrom": "2025", "playedTo": "\u{0}" } }),
        6 => json!({ "id": "9223372036854775807", "n": 2147483647, "x": true }),
        _ => json!({ "l": log, "id": (1 + rng.below(STORED)).to_string(), "d": { "player": rng.below(3) } }),
    }
}

/// A char boundary of `s` at or before `i`.
fn boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One mutation of a document.
fn mutate(rng: &mut Rng, doc: &str) -> String {
    let at = boundary(doc, rng.below(doc.len() + 1));
    let to = boundary(doc, at + rng.below(40));
    match rng.below(20) {
        0..=3 => format!("{}{}{}", &doc[..at], *rng.pick(PIECES), &doc[at..]),
        4..=7 => format!("{}{}", &doc[..at], &doc[to..]),
        8..=10 => format!("{}{}{}", &doc[..to], &doc[at..to].repeat(1 + rng.below(50)), &doc[to..]),
        11..=14 => format!("{}{}{}", &doc[..at], rng.pick(PIECES), &doc[to..]),
        15 => {
            // Many aliases of one selection.
            let n = 1 + rng.below(1500);
            let leaves =
                ["__typename", "replay(gameId: $id) { round }", "game(id: $id) { log }", "game(id: $id) { ledger }"];
            let leaf = *rng.pick(&leaves);
            let body: Vec<String> = (0..n).map(|i| format!("a{i}: {leaf}")).collect();
            let head = if leaf == "__typename" { "" } else { "query($id: ID!) " };
            format!("{head}{{ {} }}", body.join(" "))
        }
        16 => {
            let leaves = [
                "__typename",
                "games { edges { cursor } }",
                "verifyLog(log: $l) { status }",
                "replay(gameId: $id) { state }",
                "game(id: $id) { log ledger }",
            ];
            let leaf: &str = leaves[rng.below(leaves.len())];
            fragment_bomb(1 + rng.below(40), leaf)
        }
        17 => {
            let n = 1 + rng.below(80);
            format!("{{ {}__typename{} }}", "games { edges { node { ".repeat(n), " } } }".repeat(n))
        }
        18 => {
            let n = rng.below(1200);
            let args: Vec<String> = (0..n).map(|i| format!("x{i}: {i}")).collect();
            format!("{{ games({}) {{ edges {{ cursor }} }} }}", args.join(", "))
        }
        _ => doc.chars().rev().collect(),
    }
}

/// Games stored before the campaign (ids 1 to this).
const STORED: usize = 6;

struct Fixture {
    schema: graphql::ChronicleSchema,
    limits: Limits,
    member: Bearer,
    _dir: TempDir,
}

async fn fixture() -> Fixture {
    let dir = TempDir::new();
    let store =
        chronicle_store::open(&format!("sqlite://{}", dir.0.join("fuzz.db").display())).await.expect("open store");
    let limits = AdmissionLimits {
        replay_slots: 2,
        queue: 64,
        wait: Duration::from_secs(10),
        ..AdmissionLimits::for_this_machine()
    };
    let service = Arc::new(Service::new(store, 1000, limits).expect("service"));
    let member = Bearer::Api { id: 1, name: "fuzz".into() };
    let mut logs = ["complete_3p.json", "complete_solo.json", "invalid_keep.json"].map(fixture_bytes).to_vec();
    // A large stored game: a complete game with a 2 MB `meta.id`.
    let mut large: Value = serde_json::from_slice(&fixture_bytes("complete_4p.json")).expect("JSON");
    large["meta"]["id"] = json!("x".repeat(2 << 20));
    logs.push(serde_json::to_vec(&large).expect("JSON"));
    logs.push(
        std::fs::read(crate::common::server::engine_fixture(crate::common::server::ABOVE_AND_BELOW)).expect("read"),
    );
    logs.push(std::fs::read(crate::common::server::engine_fixture(crate::common::server::VILLAGE)).expect("read"));
    assert_eq!(logs.len(), STORED);
    service.submit(logs, &member).await.expect("seed games");
    let limits = Limits {
        max_depth: 12,
        max_complexity: 5000,
        max_query_bytes: 100_000,
        max_selections: 1000,
        replay_budget: 20 << 20,
    };
    Fixture { schema: graphql::schema(service, limits), limits, member, _dir: dir }
}

fn fixture_bytes(name: &str) -> Vec<u8> {
    crate::common::fixture(name).bytes
}

/// What a campaign found.
#[derive(Debug, Default)]
struct Findings {
    cases: u64,
    refused_by_guard: std::collections::BTreeMap<&'static str, u64>,
    answered: u64,
    slowest: Duration,
    slowest_case: String,
    /// The most CPU (all the process's threads) one case took.
    most_cpu: Duration,
    /// How far the process's peak resident memory rose over the campaign.
    peak_growth: u64,
    problems: Vec<String>,
}

/// The CPU time of the whole process so far (`/proc/self/stat`: user and system, in ticks of
/// 10 ms).
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the line (utime, stime): the 12th and 13th after the name.
    let field = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    let ticks = field(11) + field(12);
    Duration::from_millis(ticks * 10)
}

/// The process's peak resident memory in bytes (`VmHWM`).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// The promise of docs/reliability.md: no request takes more memory than this.
const MEMORY_BOUND: u64 = 256 << 20;

/// The longest a case may take: a second (docs/reliability.md), five in a debug build (ten times
/// slower, and shared with other tests in CI).
fn limit() -> Duration {
    Duration::from_secs(if cfg!(debug_assertions) { 5 } else { 1 })
}

fn campaign(cases: u64, seed: u64) -> Findings {
    let limit = limit();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        let fx = fixture().await;
        let log: Value = serde_json::from_slice(&fixture_bytes("complete_solo.json")).expect("JSON");
        let mut rng = Rng(seed);
        let mut found = Findings::default();
        let peak_before = peak_rss();
        for case in 0..cases {
            let mut doc = rng.pick(SEEDS).to_string();
            for _ in 0..1 + rng.below(3) {
                doc = mutate(&mut rng, &doc);
            }
            let vars = variables(&mut rng, &log);
            let caller = if rng.below(4) == 0 { Caller(Some(fx.member.clone())) } else { Caller(None) };
            let request = async_graphql::Request::new(doc.clone()).variables(async_graphql::Variables::from_json(vars));
            let start = Instant::now();
            let cpu_before = process_cpu();
            let run = tokio::spawn({
                let (schema, limits) = (fx.schema.clone(), fx.limits);
                async move { graphql::run(&schema, &limits, caller, request).await }
            })
            .await;
            let took = start.elapsed();
            let cpu = process_cpu().saturating_sub(cpu_before);
            found.most_cpu = found.most_cpu.max(cpu);
            found.cases += 1;
            let short: String = doc.chars().take(300).collect();
            if took > found.slowest {
                found.slowest = took;
                found.slowest_case = format!("case {case}: {short}");
            }
            match run {
                Err(panic) => found.problems.push(format!("case {case}: panic {panic}: {short}")),
                Ok(Err(refused)) => *found.refused_by_guard.entry(refused.code).or_default() += 1,
                Ok(Ok(response)) => {
                    found.answered += 1;
                    if let Some(e) =
                        response.errors.iter().find(|e| e.extensions.as_ref().and_then(|x| x.get("code")).is_none())
                    {
                        found.problems.push(format!("case {case}: error without a code ({}): {short}", e.message));
                    }
                    if response.errors.len() > 21 {
                        found.problems.push(format!("case {case}: {} errors: {short}", response.errors.len()));
                    }
                }
            }
            if took > limit || cpu > limit {
                found.problems.push(format!("case {case}: took {took:?} ({cpu:?} of CPU): {short}"));
            }
        }
        found.peak_growth = peak_rss().saturating_sub(peak_before);
        if found.peak_growth > MEMORY_BOUND {
            found.problems.push(format!("the peak memory rose by {} MiB", found.peak_growth >> 20));
        }
        found
    })
}

#[test]
fn mutated_graphql_requests_never_panic_hang_or_answer_without_a_code() {
    let cases = std::env::var("CHRONICLE_GRAPHQL_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2000);
    let seed = std::env::var("CHRONICLE_GRAPHQL_FUZZ_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(20261125);
    let start = Instant::now();
    let found = campaign(cases, seed);
    eprintln!(
        "graphql fuzz: {} cases (seed {seed}) in {:.1} s: refused by the guard {:?}, {} executed, slowest {:?} ({}), \
         most CPU of one case {:?}, peak memory +{} MiB, {} problems",
        found.cases,
        start.elapsed().as_secs_f64(),
        found.refused_by_guard,
        found.answered,
        found.slowest,
        found.slowest_case,
        found.most_cpu,
        found.peak_growth >> 20,
        found.problems.len()
    );
    assert!(found.problems.is_empty(), "{:#?}", &found.problems[..found.problems.len().min(20)]);
    // Not vacuous: the executor saw many cases, and the guard refused each kind of document.
    assert!(found.answered > cases / 10, "{found:?}");
    for code in ["GRAPHQL_PARSE_FAILED", "QUERY_TOO_COMPLEX", "QUERY_TOO_DEEP"] {
        assert!(found.refused_by_guard.contains_key(code), "no {code}: {found:?}");
    }
}
