//! A WebDriver session in headless Chromium: the W3C commands these tests
//! send (navigate, find, click, type, keys, read text, run a script, a
//! screenshot, a viewport), as JSON over plain HTTP to chromedriver on
//! 127.0.0.1. Every command and every wait is bounded.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use base64::Engine as _;
use crossborder_testkit::{wait_until, WaitError};
use reqwest::Method;
use serde_json::{json, Value};

use crate::driver::{find_programs, output_dir, Driver};

/// How long one WebDriver command may take (a page load included).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a test waits for the page to show something.
pub const WAIT: Duration = Duration::from_secs(15);

/// The key under which WebDriver names an element.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Chromium's flags on this machine: headless, as root, and nothing that
/// reaches for the network (the machine is offline; /work/.library's
/// machine notes).
const FLAGS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// The desktop viewport every session starts with.
pub const DESKTOP: (u32, u32) = (1280, 800);

/// A phone held upright (CSS pixels).
pub const PHONE: (u32, u32) = (390, 844);

/// A browser profile folder, new for each session and removed after it.
#[derive(Debug)]
struct Profile(PathBuf);

impl Drop for Profile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A headless Chromium under chromedriver, with one session open.
#[derive(Debug)]
pub struct Browser {
    http: reqwest::Client,
    session: String,
    // Field order is drop order: the driver's process group is killed
    // before the profile it used is removed.
    driver: Driver,
    _profile: Profile,
}

/// A WebDriver command's error: the W3C error code and its message.
#[derive(Debug, Clone)]
pub struct CommandError {
    /// `no such element`, `stale element reference`, ...
    pub error: String,
    /// The driver's message.
    pub message: String,
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.error, self.message)
    }
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile and
    /// a [`DESKTOP`] viewport. `None` (with the reason printed) when
    /// Chromium or chromedriver is missing outside CI.
    ///
    /// # Panics
    ///
    /// When one is missing in CI ([`find_programs`]), or the driver or the
    /// session does not start.
    pub async fn start() -> Option<Browser> {
        let programs = match find_programs() {
            Ok(programs) => programs,
            Err(reason) => {
                eprintln!("skipped: {reason}");
                return None;
            }
        };
        let http = reqwest::Client::builder()
            .timeout(COMMAND_TIMEOUT)
            .build()
            .unwrap_or_else(|error| panic!("no HTTP client: {error}"));
        let driver = Driver::start(&programs, &http).await;
        let profile = Profile(fresh_profile_dir());
        let mut args: Vec<String> = FLAGS.iter().map(|flag| (*flag).to_owned()).collect();
        args.push(format!("--user-data-dir={}", profile.0.display()));
        args.push(format!("--window-size={},{}", DESKTOP.0, DESKTOP.1));
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": programs.chromium, "args": args},
        }}});
        let answer = send(
            &http,
            Method::POST,
            &format!("{}/session", driver.url),
            Some(capabilities),
        )
        .await
        .unwrap_or_else(|error| panic!("no browser session: {error}"));
        let session = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no sessionId in {answer}"))
            .to_owned();
        let browser = Browser {
            http,
            session,
            driver,
            _profile: profile,
        };
        browser.viewport(DESKTOP, false).await;
        Some(browser)
    }

    /// One command of this session: `path` below `/session/{id}`.
    async fn command(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, CommandError> {
        let url = format!("{}/session/{}{path}", self.driver.url, self.session);
        send(&self.http, method, &url, body).await
    }

    /// Like [`Browser::command`], for commands that must succeed.
    async fn must(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        self.command(method, path, body)
            .await
            .unwrap_or_else(|error| panic!("WebDriver {path}: {error}"))
    }

    /// Opens `url` and waits for it to load.
    pub async fn goto(&self, url: &str) {
        self.must(Method::POST, "/url", Some(json!({ "url": url })))
            .await;
    }

    /// The address the page is at.
    pub async fn url(&self) -> String {
        let value = self.must(Method::GET, "/url", None).await;
        value.as_str().unwrap_or_default().to_owned()
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the
    /// page and returns what it returns.
    pub async fn script(&self, script: &str, args: Value) -> Value {
        self.must(
            Method::POST,
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
        .await
    }

    /// Waits until `css` matches a displayed element, then runs `act` on
    /// it; an element replaced meanwhile (the page re-renders its rows
    /// when the state changes) is looked up again. At most [`WAIT`].
    async fn on_element<T, F, Fut>(&self, css: &str, act: F) -> T
    where
        F: Fn(String) -> Fut,
        Fut: std::future::Future<Output = Result<T, CommandError>>,
    {
        let found = wait_until(WAIT, || async {
            let element = match self.element(css).await {
                Ok(element) => element,
                Err(error) => return Ok(Err(error.to_string())),
            };
            match act(element).await {
                Ok(value) => Ok(Ok(value)),
                Err(error) if retried(&error) => Ok(Err(error.to_string())),
                Err(error) => Err(WaitError::TimedOut {
                    waited: Duration::ZERO,
                    last: error.to_string(),
                }),
            }
        })
        .await;
        found.unwrap_or_else(|error| panic!("{css}: {error}"))
    }

    /// The id of the first element `css` matches, when it is displayed.
    async fn element(&self, css: &str) -> Result<String, CommandError> {
        let found = self
            .command(
                Method::POST,
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await?;
        let id = found[ELEMENT_KEY].as_str().unwrap_or_default().to_owned();
        let shown = self
            .command(Method::GET, &format!("/element/{id}/displayed"), None)
            .await?;
        if shown == true {
            Ok(id)
        } else {
            Err(CommandError {
                error: "not displayed".into(),
                message: format!("{css} is hidden"),
            })
        }
    }

    /// Clicks the element `css` matches, once it is displayed.
    pub async fn click(&self, css: &str) {
        self.on_element(css, |id| async move {
            self.command(
                Method::POST,
                &format!("/element/{id}/click"),
                Some(json!({})),
            )
            .await
            .map(drop)
        })
        .await;
    }

    /// Clears the field `css` matches and types `text` into it (real key
    /// events, the field focused first).
    pub async fn fill(&self, css: &str, text: &str) {
        self.on_element(css, |id| async move {
            self.command(
                Method::POST,
                &format!("/element/{id}/clear"),
                Some(json!({})),
            )
            .await?;
            self.command(
                Method::POST,
                &format!("/element/{id}/value"),
                Some(json!({ "text": text })),
            )
            .await
            .map(drop)
        })
        .await;
    }

    /// The rendered text of the element `css` matches.
    pub async fn text(&self, css: &str) -> String {
        self.on_element(css, |id| async move {
            let text = self
                .command(Method::GET, &format!("/element/{id}/text"), None)
                .await?;
            Ok(text.as_str().unwrap_or_default().to_owned())
        })
        .await
    }

    /// Waits until the text of the element `css` matches contains
    /// `expected`, and returns that text. At most [`WAIT`].
    pub async fn wait_for_text(&self, css: &str, expected: &str) -> String {
        let seen = wait_until(WAIT, || async {
            let element = match self.element(css).await {
                Ok(element) => element,
                Err(error) => return Ok(Err(error.to_string())),
            };
            let text = match self
                .command(Method::GET, &format!("/element/{element}/text"), None)
                .await
            {
                Ok(text) => text.as_str().unwrap_or_default().to_owned(),
                Err(error) => return Ok(Err(error.to_string())),
            };
            Ok(if text.contains(expected) {
                Ok(text)
            } else {
                Err(format!("{text:?}"))
            })
        })
        .await;
        seen.unwrap_or_else(|error| panic!("{css} never showed {expected:?}: {error}"))
    }

    /// Waits until `script` (a function body) returns `true`. At most
    /// [`WAIT`].
    pub async fn wait_for_script(&self, script: &str, what: &str) {
        let done = wait_until(WAIT, || async {
            let value = self.script(script, json!([])).await;
            Ok(if value == true {
                Ok(())
            } else {
                Err(value.to_string())
            })
        })
        .await;
        done.unwrap_or_else(|error| panic!("{what}: {error}"));
    }

    /// Presses `keys` on whatever has the focus, one key after another, as
    /// a keyboard does (WebDriver's key codes: `\u{E007}` Enter,
    /// `\u{E004}` Tab).
    pub async fn keys(&self, keys: &str) {
        let mut actions = Vec::new();
        for key in keys.chars() {
            actions.push(json!({"type": "keyDown", "value": key.to_string()}));
            actions.push(json!({"type": "keyUp", "value": key.to_string()}));
        }
        let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
        self.must(Method::POST, "/actions", Some(body)).await;
    }

    /// Sets the viewport to `size` CSS pixels, as a phone (`mobile`, at
    /// twice the pixels) or a desktop window, through the DevTools
    /// protocol chromedriver forwards.
    pub async fn viewport(&self, size: (u32, u32), mobile: bool) {
        let params = json!({
            "width": size.0,
            "height": size.1,
            "deviceScaleFactor": if mobile { 2 } else { 1 },
            "mobile": mobile,
        });
        self.must(
            Method::POST,
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": params})),
        )
        .await;
    }

    /// Writes a PNG of the viewport to `path` (folders created).
    pub async fn screenshot(&self, path: &Path) {
        let value = self.must(Method::GET, "/screenshot", None).await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(value.as_str().unwrap_or_default())
            .unwrap_or_else(|error| panic!("the screenshot is not base64: {error}"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|error| panic!("{dir:?}: {error}"));
        }
        std::fs::write(path, png).unwrap_or_else(|error| panic!("{path:?}: {error}"));
    }

    /// Ends the session (the browser quits), then the driver.
    pub async fn close(self) {
        let _ = self.command(Method::DELETE, "", None).await;
    }
}

/// Errors a later try may not meet: the element was not there yet, was
/// replaced by a re-render, or was covered for a moment.
fn retried(error: &CommandError) -> bool {
    matches!(
        error.error.as_str(),
        "no such element"
            | "stale element reference"
            | "element not interactable"
            | "element click intercepted"
            | "not displayed"
    )
}

/// Sends one WebDriver request and returns its `value`.
async fn send(
    http: &reqwest::Client,
    method: Method,
    url: &str,
    body: Option<Value>,
) -> Result<Value, CommandError> {
    let mut request = http.request(method, url);
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let transport = |error: reqwest::Error| CommandError {
        error: "transport".into(),
        message: error.to_string(),
    };
    let response = request.send().await.map_err(transport)?;
    let status = response.status();
    let answer: Value = response.json().await.map_err(transport)?;
    let value = answer.get("value").cloned().unwrap_or(Value::Null);
    if status.is_success() {
        return Ok(value);
    }
    Err(CommandError {
        error: value["error"]
            .as_str()
            .unwrap_or("unknown error")
            .to_owned(),
        message: value["message"].as_str().unwrap_or_default().to_owned(),
    })
}

/// A new, empty profile folder under `target/console/profiles/`.
fn fresh_profile_dir() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = output_dir()
        .join("profiles")
        .join(format!("{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|error| panic!("{dir:?}: {error}"));
    dir
}
