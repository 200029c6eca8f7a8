//! A real headless Chromium for the web app's tests, driven through ChromeDriver's W3C WebDriver
//! protocol (JSON over HTTP, spoken with the same plain client as the service tests). Debian's
//! `chromium` and `chromium-driver` (`.ci/run` installs them); without them the browser tests
//! skip loudly, except under `CI`, where they fail.

use std::io::Write;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::TempDir;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The W3C element reference key.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Whether the browser tests can run here; under `CI` they must.
pub fn browser_available() -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("{CHROMIUM} or {CHROMEDRIVER} is missing and CI is set: the browser tests must run (apt-get install chromium chromium-driver)");
    }
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPING the browser tests: {CHROMIUM} or {CHROMEDRIVER} is missing.\n\
         *** apt-get install chromium chromium-driver; under CI this is a failure. ***\n"
    );
    false
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// A headless Chromium session; the browser and its driver stop when dropped.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
    _profile: TempDir,
    downloads: TempDir,
}

/// An element found on the page.
#[derive(Clone, Debug)]
pub struct Element(String);

impl Browser {
    pub fn start() -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while agent.get(&format!("{base}/status")).call().is_err() {
            assert!(started.elapsed() < Duration::from_secs(20), "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = TempDir::new();
        let downloads = TempDir::new();
        let args = [
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--window-size=1280,1600".to_owned(),
            format!("--user-data-dir={}", profile.0.display()),
        ];
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args, "prefs": {
                "download.default_directory": downloads.0.display().to_string(),
                "download.prompt_for_download": false,
            } },
        } } });
        let mut b = Browser { driver, base, session: String::new(), agent, _profile: profile, downloads };
        let v = b.call("POST", "/session", caps);
        b.session = v["sessionId"].as_str().expect("a WebDriver session").to_owned();
        b
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let url = if path == "/session" {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let mut response = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self.agent.post(&url).send_json(&body),
        }
        .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        let status = response.status().as_u16();
        let v: Value = response.body_mut().read_json().unwrap_or(Value::Null);
        assert!(status < 400, "WebDriver {method} {path} answered {status}: {}", v["value"]);
        v["value"]
            .clone()
            .as_object()
            .filter(|o| o.contains_key("sessionId"))
            .map_or(v["value"].clone(), |o| Value::Object(o.clone()))
    }

    /// Where the browser saves downloads.
    pub fn downloads(&self) -> &Path {
        &self.downloads.0
    }

    /// Clicks the download link `css` and reads the JSON file the browser saved (removed
    /// after reading).
    pub fn download_json(&self, css: &str) -> serde_json::Value {
        self.click(&self.find(css));
        let started = std::time::Instant::now();
        loop {
            let files: Vec<std::path::PathBuf> = std::fs::read_dir(self.downloads())
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            if let Some(f) = files.iter().find(|f| f.extension().is_some_and(|x| x == "json")) {
                if let Ok(v) = serde_json::from_slice(&std::fs::read(f).unwrap_or_default()) {
                    std::fs::remove_file(f).expect("remove the download");
                    return v;
                }
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(10),
                "no download in {}",
                self.downloads().display()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    /// The first element matching a CSS selector, waiting up to 10 s for it.
    pub fn find(&self, css: &str) -> Element {
        let started = Instant::now();
        loop {
            if let Some(e) = self.try_find(css) {
                return e;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "no element `{css}` on {}", self.url());
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn try_find(&self, css: &str) -> Option<Element> {
        let url = format!("{}/session/{}/element", self.base, self.session);
        let mut response =
            self.agent.post(&url).send_json(json!({ "using": "css selector", "value": css })).expect("WebDriver");
        if response.status().as_u16() >= 400 {
            return None;
        }
        let v: Value = response.body_mut().read_json().ok()?;
        v["value"][ELEMENT].as_str().map(|id| Element(id.to_owned()))
    }

    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self.call("POST", "/elements", json!({ "using": "css selector", "value": css }));
        v.as_array().map_or_else(Vec::new, |a| {
            a.iter().filter_map(|e| e[ELEMENT].as_str()).map(|id| Element(id.to_owned())).collect()
        })
    }

    pub fn click(&self, e: &Element) {
        self.call("POST", &format!("/element/{}/click", e.0), json!({}));
    }

    pub fn text(&self, e: &Element) -> String {
        self.call("GET", &format!("/element/{}/text", e.0), Value::Null).as_str().unwrap_or_default().to_owned()
    }

    pub fn attribute(&self, e: &Element, name: &str) -> Option<String> {
        self.call("GET", &format!("/element/{}/attribute/{name}", e.0), Value::Null).as_str().map(str::to_owned)
    }

    pub fn type_into(&self, e: &Element, text: &str) {
        self.call("POST", &format!("/element/{}/value", e.0), json!({ "text": text }));
    }

    /// Runs a script in the page and returns its value.
    pub fn script(&self, body: &str, args: Value) -> Value {
        self.call("POST", "/execute/sync", json!({ "script": body, "args": args }))
    }

    /// Presses keys on the page (e.g. "\u{E012}" is the left arrow, "\u{E014}" the right).
    pub fn press(&self, key: &str) {
        let actions: Vec<Value> =
            [("keyDown", key), ("keyUp", key)].iter().map(|(t, k)| json!({ "type": t, "value": k })).collect();
        self.call("POST", "/actions", json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] }));
        self.call("DELETE", "/actions", Value::Null);
    }

    /// Resizes the window (CSS pixels), e.g. to a phone's width.
    pub fn resize(&self, width: u32, height: u32) {
        self.call("POST", "/window/rect", json!({ "width": width, "height": height }));
    }

    pub fn url(&self) -> String {
        self.call("GET", "/url", Value::Null).as_str().unwrap_or_default().to_owned()
    }

    /// Waits until `check` holds (up to 10 s), polling.
    pub fn wait_until(&self, what: &str, check: impl Fn(&Browser) -> bool) {
        let started = Instant::now();
        while !check(self) {
            assert!(started.elapsed() < Duration::from_secs(10), "timed out waiting for {what} on {}", self.url());
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A PNG of the window, written to `path`.
    pub fn screenshot(&self, path: &Path) {
        use base64::Engine as _;
        let b64 = self.call("GET", "/screenshot", Value::Null).as_str().unwrap_or_default().to_owned();
        let bytes = base64::engine::general_purpose::STANDARD.decode(b64).expect("base64 PNG");
        std::fs::write(path, bytes).expect("write the screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.agent.delete(&format!("{}/session/{}", self.base, self.session)).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
