//! A running `chronicle serve` for the service tests: started on a free port against a
//! scratch SQLite file or PostgreSQL database, spoken to over HTTP with a plain client.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::*;

/// Where a test's database lives; removed when dropped.
pub enum Database {
    Lite(TempDir),
    Pg(PgScratch),
    /// A database another guard owns (a standby's copy of a scratch database).
    Url(String),
}

impl Database {
    pub fn sqlite() -> Database {
        Database::Lite(TempDir::new())
    }

    pub fn url(&self) -> String {
        match self {
            Database::Lite(dir) => format!("sqlite://{}", dir.0.join("chronicle.db").display()),
            Database::Pg(db) => db.url.clone(),
            Database::Url(url) => url.clone(),
        }
    }
}

/// A running `chronicle serve`, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub base: String,
    pub agent: ureq::Agent,
}

pub fn chronicle() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chronicle"))
}

impl Server {
    /// Starts the server on a free port with extra flags; waits until it listens.
    pub fn start(db: &Database, flags: &[&str]) -> Server {
        Server::start_with(db, flags, Stdio::inherit())
    }

    /// [`Server::start`] with the server's log (standard error) going to `stderr`.
    pub fn start_with(db: &Database, flags: &[&str], stderr: impl Into<Stdio>) -> Server {
        let mut child = chronicle()
            .args(["serve", "--port", "0", "--workers", "2", "--database-url", &db.url()])
            .args(flags)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start chronicle serve");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped stdout");
        BufReader::new(stdout).read_line(&mut line).expect("read the listening line");
        let addr = line.trim().strip_prefix("chronicle: listening on ").unwrap_or_else(|| {
            let _ = child.kill();
            panic!("unexpected first line from the server: {line:?}")
        });
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Server { child, base: addr.to_owned(), agent }
    }

    /// POSTs a raw body to `/graphql`: (HTTP status, JSON body).
    pub fn post_raw(&self, token: Option<&str>, body: Vec<u8>) -> (u16, Value) {
        let mut req = self.agent.post(format!("{}/graphql", self.base)).header("Content-Type", "application/json");
        if let Some(t) = token {
            req = req.header("Authorization", format!("Bearer {t}"));
        }
        let mut resp = req.send(&body[..]).expect("HTTP request");
        let status = resp.status().as_u16();
        let text = resp.body_mut().with_config().limit(64 << 20).read_to_string().expect("read body");
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("body is not JSON ({e}): {text}")))
    }

    pub fn graphql(&self, token: Option<&str>, query: &str, variables: Value) -> (u16, Value) {
        let body = serde_json::to_vec(&json!({ "query": query, "variables": variables })).expect("serialize request");
        self.post_raw(token, body)
    }

    /// A request that must succeed: its `data`.
    pub fn data(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let (status, body) = self.graphql(token, query, variables);
        assert_eq!(status, 200, "{body}");
        assert!(body.get("errors").is_none(), "unexpected errors: {body}");
        body["data"].clone()
    }

    /// A request that must fail: the `extensions.code` of its first error.
    pub fn error_code(&self, token: Option<&str>, query: &str, variables: Value) -> (u16, String) {
        let (status, body) = self.graphql(token, query, variables);
        let code = body["errors"][0]["extensions"]["code"].as_str().unwrap_or_else(|| panic!("no error code: {body}"));
        (status, code.to_owned())
    }

    /// A POST of `body` to `path` (not the API): the status and the body as text.
    pub fn post_to(&self, path: &str, body: &[u8]) -> (u16, String) {
        let mut resp = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", "application/json")
            .send(body)
            .expect("HTTP POST");
        (resp.status().as_u16(), resp.body_mut().read_to_string().expect("read body"))
    }

    /// A POST of `body` to `path` with this content type: the status and the body as text.
    pub fn post_as(&self, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
        let mut resp = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", content_type)
            .send(body)
            .expect("HTTP POST");
        (resp.status().as_u16(), resp.body_mut().read_to_string().expect("read body"))
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        let mut resp = self.agent.get(format!("{}{path}", self.base)).call().expect("HTTP GET");
        (resp.status().as_u16(), resp.body_mut().read_to_string().expect("read body"))
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().expect("run kill");
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the server") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not stop within 30 s of SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A new API token from `chronicle token create`.
pub fn create_token(db: &Database, name: &str) -> String {
    let out = chronicle().args(["token", "create", "--name", name, "--database-url", &db.url()]).output().expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).expect("UTF-8").trim().to_owned();
    assert!(token.starts_with("chr_"), "{token}");
    token
}

pub fn log(name: &str) -> Value {
    serde_json::from_slice(&fixture(name).bytes).expect("fixture is JSON")
}

/// A Village fixture of the engine's (synthetic component data), as `(engine folder, file)`.
pub const VILLAGE: (&str, &str) = ("village", "synthetic-3p-complete.json");
/// An Above and Below fixture of the engine's (synthetic component data).
pub const ABOVE_AND_BELOW: (&str, &str) = ("above-and-below", "golden-2p.json");

/// The path of one of an engine's own fixtures: `(engine folder, file)`.
pub fn engine_fixture((game, name): (&str, &str)) -> std::path::PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "..", "engine", game, "tests", "fixtures", name].iter().collect()
}

/// One of an engine's own fixtures as JSON.
pub fn engine_log(which: (&str, &str)) -> Value {
    let path = engine_fixture(which);
    serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).expect("JSON")
}

/// Runs a check against a server on SQLite and on PostgreSQL: `name::sqlite`, `name::postgres`.
#[allow(unused_macros)]
macro_rules! both_stores {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn sqlite() {
                super::$name(super::Database::sqlite());
            }

            #[test]
            fn postgres() {
                if !super::postgres_available() {
                    return;
                }
                super::$name(super::Database::Pg(super::PgScratch::create()));
            }
        }
    )*};
}
