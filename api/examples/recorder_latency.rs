//! How fast the recorder answers a click: `POST /record/next` (what the page sends after every
//! click: the log so far and the entry being built) against a running release `chronicle
//! serve`, at every position of simulated games, with the same run's baseline — `verifyLog`
//! of the same log over `/graphql` (one replay behind HTTP: the floor of any answer that
//! replays the log).
//!
//! ```text
//! cargo build --release -p chronicle-api --bin chronicle --example recorder_latency
//! target/release/examples/recorder_latency      # (CARGO_TARGET_DIR/release/… if set)
//! ```
//!
//! For every game the recorder records, at every position of simulated games (3 player counts ×
//! 3 games): the first step (no draft: the engine starts the entry the game waits for, or lists
//! the whole legal entries) and, when the engine offered a step form, the click on its first
//! option. docs/performance.md has the figures.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use chronicle_game::GameKind;
use serde_json::{json, Value};

/// Simulated games per player count and game.
const GAMES_PER_COUNT: usize = 3;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let exe = std::env::current_exe().expect("this example's path");
    let bin = exe.parent().and_then(|d| d.parent()).map(|d| d.join("chronicle")).expect("target dir");
    assert!(bin.exists(), "build the server first: cargo build --release -p chronicle-api --bin chronicle");
    let dir = std::env::temp_dir().join(format!("chronicle-latency-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a port");
    let _server = Server(
        Command::new(&bin)
            // One client asks thousands of times a minute here: lift the per-address limit.
            .args(["serve", "--anonymous-rate-limit", "1000000", "--port", &port.to_string(), "--database-url"])
            .arg(format!("sqlite://{}", dir.join("c.db").display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chronicle serve"),
    );
    let base = format!("http://127.0.0.1:{port}");
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let started = Instant::now();
    while agent.get(format!("{base}/games")).call().is_err() {
        assert!(started.elapsed() < Duration::from_secs(20), "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }

    let verify = "query($log: JSON!) { verifyLog(log: $log) { status } }";
    let post = |path: &str, body: &Value| -> (f64, Value) {
        let bytes = body.to_string();
        let t = Instant::now();
        let mut r = agent
            .post(format!("{base}{path}"))
            .header("Content-Type", "application/json")
            .send(bytes.as_bytes())
            .expect("request");
        let text = r.body_mut().read_to_string().unwrap_or_default();
        assert_eq!(r.status().as_u16(), 200, "{path}: {text}");
        (t.elapsed().as_secs_f64() * 1000.0, serde_json::from_str(&text).unwrap_or(Value::Null))
    };
    println!("game                 answers  /record/next p50   p99    max   verifyLog p50   p99   ratio p50  p99");
    for kind in GameKind::ALL.iter().copied().filter(|k| k.spec().capabilities.recorder) {
        let engine = chronicle_ingest::games::engine(kind);
        let (mut recorder, mut floor) = (Vec::new(), Vec::new());
        let spec = kind.spec();
        // Three player counts the game has (its smallest, a middle one, its largest), games each.
        let counts = [spec.min_players, (spec.min_players + spec.max_players).div_ceil(2), spec.max_players];
        for (i, players) in counts.into_iter().enumerate() {
            for g in 0..GAMES_PER_COUNT {
                let seed = 99 + (i * 10 + g) as u64;
                let log = engine.simulate(seed, players).expect("a simulated game");
                let entries = log["entries"].as_array().cloned().unwrap_or_default();
                for k in 0..entries.len() {
                    let mut prefix = log.clone();
                    prefix["entries"] = Value::Array(entries[..k].to_vec());
                    prefix.as_object_mut().map(|o| o.remove("claimed"));
                    let (ms, first) = post("/record/next", &json!({ "log": prefix }));
                    recorder.push(ms);
                    floor.push(post("/graphql", &json!({ "query": verify, "variables": { "log": prefix } })).0);
                    // The click after: the first option of the step form, when there is one.
                    let option = first["steps"]["groups"][0]["options"][0]["draft"].clone();
                    if !option.is_null() {
                        recorder.push(post("/record/next", &json!({ "log": prefix, "draft": option })).0);
                        floor.push(post("/graphql", &json!({ "query": verify, "variables": { "log": prefix } })).0);
                    }
                }
            }
        }
        let (r50, r99, rmax) = (pct(&mut recorder, 0.5), pct(&mut recorder, 0.99), pct(&mut recorder, 1.0));
        let (f50, f99) = (pct(&mut floor, 0.5), pct(&mut floor, 0.99));
        println!(
            "{:<20} {:>7}  {r50:14.2} {r99:6.2} {rmax:6.2}   {f50:11.2} {f99:5.2}   {:8.1}× {:4.1}×",
            spec.name,
            recorder.len(),
            r50 / f50,
            r99 / f99
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `q` quantile of `v` (sorted here).
fn pct(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() as f64 - 1.0) * q).round() as usize]
}
