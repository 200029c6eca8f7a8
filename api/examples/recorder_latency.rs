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
//! Two requests per `place` entry are timed: the first step (no draft: the engine starts one
//! for the player to move and lists the spaces) and the step after choosing its space (the
//! parts with every parameter); one per other entry. docs/performance.md has the figures.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use chronicle_caverna::bots::{game_seed, seat_kinds, simulate_game, simulated_setup, BotChoice};
use chronicle_caverna::notation::FurnishingSet;
use serde_json::{json, Value};

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

    let (mut recorder, mut floor) = (Vec::new(), Vec::new());
    let time = |path: &str, body: &Value| -> f64 {
        let bytes = body.to_string();
        let t = Instant::now();
        let mut r = agent
            .post(format!("{base}{path}"))
            .header("Content-Type", "application/json")
            .send(bytes.as_bytes())
            .expect("request");
        let _ = r.body_mut().read_to_string();
        assert_eq!(r.status().as_u16(), 200, "{path}");
        t.elapsed().as_secs_f64() * 1000.0
    };
    let verify = "query($log: JSON!) { verifyLog(log: $log) { status } }";
    for (players, n) in [(1, 3), (3, 3), (5, 2)] {
        for i in 0..n {
            let seed = game_seed(99, players * 10 + i);
            let kinds = seat_kinds(BotChoice::Mixed, players as usize, seed);
            let setup = simulated_setup(&kinds, FurnishingSet::Full, seed);
            let log = simulate_game(&setup, &kinds, seed).expect("a simulated game");
            let entries = log["entries"].as_array().cloned().unwrap_or_default();
            for k in 0..entries.len() {
                let mut prefix = log.clone();
                prefix["entries"] = Value::Array(entries[..k].to_vec());
                prefix.as_object_mut().map(|o| o.remove("claimed"));
                recorder.push(time("/record/next", &json!({ "log": prefix })));
                floor.push(time("/graphql", &json!({ "query": verify, "variables": { "log": prefix } })));
                let next = &entries[k];
                if next["type"] == "place" {
                    let draft = json!({ "player": next["player"], "space": next["space"] });
                    recorder.push(time("/record/next", &json!({ "log": prefix, "draft": draft })));
                    floor.push(time("/graphql", &json!({ "query": verify, "variables": { "log": prefix } })));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let pct = |v: &mut Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() as f64 - 1.0) * q).round() as usize]
    };
    let n = recorder.len();
    let (r50, r99, rmax) = (pct(&mut recorder, 0.5), pct(&mut recorder, 0.99), pct(&mut recorder, 1.0));
    let (f50, f99) = (pct(&mut floor, 0.5), pct(&mut floor, 0.99));
    println!("{n} recorder answers (solo ×3, 3 players ×3, 5 players ×2; every position)");
    println!("POST /record/next   p50 {r50:7.2} ms   p99 {r99:7.2} ms   max {rmax:7.2} ms");
    println!("verifyLog (floor)   p50 {f50:7.2} ms   p99 {f99:7.2} ms");
    println!("ratio to the floor  p50 {:.1}×   p99 {:.1}×", r50 / f50, r99 / f99);
}
