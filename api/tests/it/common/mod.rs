//! Shared harness of the `api` integration tests: scratch SQLite directories and PostgreSQL
//! databases, the golden fixtures. PostgreSQL: `CHRONICLE_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/test`); when unreachable, PostgreSQL tests skip loudly,
//! or fail when `CI` is set.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chronicle_ingest::inputs::LogInput;
use serde_json::Value;

#[macro_use]
pub mod server;
pub mod browser;

pub const DEFAULT_PG: &str = "postgres://postgres@127.0.0.1:5432/test";

pub fn pg_base_url() -> String {
    std::env::var("CHRONICLE_TEST_POSTGRES_URL").ok().filter(|u| !u.is_empty()).unwrap_or_else(|| DEFAULT_PG.into())
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime")
}

pub fn unique_name(prefix: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{prefix}_{}_{}_{}", std::process::id(), nanos % 1_000_000_000_000, N.fetch_add(1, Ordering::Relaxed))
}

/// `base` with its database name replaced.
pub fn with_database(base: &str, name: &str) -> String {
    let (url, query) = match base.split_once('?') {
        Some((u, q)) => (u, format!("?{q}")),
        None => (base, String::new()),
    };
    let authority_start = url.find("://").map_or(0, |i| i + 3);
    let root = match url[authority_start..].find('/') {
        Some(i) => &url[..authority_start + i],
        None => url,
    };
    format!("{root}/{name}{query}")
}

/// Whether the PostgreSQL half runs: yes when the server answers; when it does not, a loud skip
/// (or, under CI, a failure).
pub fn postgres_available() -> bool {
    use sqlx::Connection;
    let base = pg_base_url();
    let reachable = runtime()
        .block_on(async { tokio::time::timeout(Duration::from_secs(5), sqlx::PgConnection::connect(&base)).await });
    let error = match reachable {
        Ok(Ok(_)) => return true,
        Ok(Err(e)) => e.to_string(),
        Err(_) => "timed out".to_owned(),
    };
    if std::env::var_os("CI").is_some() {
        panic!("PostgreSQL at {base} is unreachable ({error}) and CI is set: the PostgreSQL contract tests must run");
    }
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPING the PostgreSQL store contract test: {base} is unreachable ({error}).\n\
         *** Start PostgreSQL or set CHRONICLE_TEST_POSTGRES_URL; under CI this is a failure. ***\n"
    );
    false
}

/// A scratch PostgreSQL database, dropped when this guard goes.
pub struct PgScratch {
    name: String,
    pub url: String,
}

impl PgScratch {
    pub fn create() -> PgScratch {
        use sqlx::{Connection, Executor};
        let name = unique_name("chronicle_test");
        let base = pg_base_url();
        runtime().block_on(async {
            let mut admin = sqlx::PgConnection::connect(&base).await.expect("connect to PostgreSQL");
            admin.execute(format!("CREATE DATABASE {name}").as_str()).await.expect("create scratch database");
        });
        PgScratch { url: with_database(&base, &name), name }
    }
}

impl Drop for PgScratch {
    fn drop(&mut self) {
        let name = self.name.clone();
        // On a thread of its own: this may run while a panic unwinds out of another runtime.
        let _ = std::thread::spawn(move || {
            use sqlx::{Connection, Executor};
            runtime().block_on(async {
                if let Ok(mut admin) = sqlx::PgConnection::connect(&pg_base_url()).await {
                    let _ = admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await;
                }
            })
        })
        .join();
    }
}

/// A scratch directory, removed when this guard goes.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        let dir = std::env::temp_dir().join(unique_name("chronicle-store-test"));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/games")
}

pub fn fixture(name: &str) -> LogInput {
    let path = fixtures_dir().join(name);
    LogInput { name: name.into(), bytes: std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())) }
}

/// `log` with `meta.id` set, as compact JSON (a distinct game for the dedupe key).
pub fn variant(log: &[u8], id: &str) -> Vec<u8> {
    let mut v: Value = serde_json::from_slice(log).expect("fixture is JSON");
    v["meta"]["id"] = Value::String(id.into());
    serde_json::to_vec(&v).expect("serialize")
}

/// A GraphQL document of `levels` fragments, each spreading the previous one twice: 2^levels
/// copies of `leaf` once expanded, from a few hundred bytes.
pub fn fragment_bomb(levels: usize, leaf: &str) -> String {
    let mut doc = format!("query {{ ...F{levels} }}\nfragment F0 on Query {{ {leaf} }}\n");
    for i in 1..=levels {
        doc.push_str(&format!("fragment F{i} on Query {{ ...F{p} ...F{p} }}\n", p = i - 1));
    }
    doc
}
