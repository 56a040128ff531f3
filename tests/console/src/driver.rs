//! Chromium and chromedriver: found on this machine (Debian's `chromium`
//! and `chromium-driver`), the driver started on a free loopback port in a
//! process group of its own, and that group killed when the test is done,
//! the browser it started included.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// How long chromedriver may take to answer its status after starting.
pub const DRIVER_START: Duration = Duration::from_secs(20);

/// The two programs a browser test needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Programs {
    /// The browser (`/usr/bin/chromium` on Debian).
    pub chromium: PathBuf,
    /// Its WebDriver server (`/usr/bin/chromedriver`).
    pub chromedriver: PathBuf,
}

/// Reads an environment variable (the process's, or a test's own).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// The process's environment.
fn process_env(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// True when the environment variable `CI` is set (to anything but the
/// empty string), as `CI=true bash .ci/run` sets it.
pub fn in_ci(env: Env<'_>) -> bool {
    env("CI").is_some_and(|value| !value.is_empty())
}

/// [`find_programs_in`] the process's environment.
///
/// # Panics
///
/// As [`find_programs_in`].
///
/// # Errors
///
/// As [`find_programs_in`].
pub fn find_programs() -> Result<Programs, String> {
    find_programs_in(&process_env)
}

/// Finds Chromium and chromedriver: `$CHROMIUM` and `$CHROMEDRIVER` when
/// set, else `chromium` (or `chromium-browser`) and `chromedriver` on the
/// `$PATH`, all read from `env`.
///
/// # Panics
///
/// When one is missing and [`in_ci`]: CI installs both (`.ci/run`), so a
/// missing browser there is a broken run, never a skipped test.
///
/// # Errors
///
/// Why the tests skip, when one is missing outside CI.
pub fn find_programs_in(env: Env<'_>) -> Result<Programs, String> {
    let chromium = program(env, "CHROMIUM", &["chromium", "chromium-browser"]);
    let chromedriver = program(env, "CHROMEDRIVER", &["chromedriver"]);
    match (chromium, chromedriver) {
        (Some(chromium), Some(chromedriver)) => Ok(Programs {
            chromium,
            chromedriver,
        }),
        (chromium, chromedriver) => {
            let reason = format!(
                "the browser tests need Chromium and chromedriver (Debian: apt-get install \
                 chromium chromium-driver); found chromium: {}, chromedriver: {}",
                shown(chromium.as_deref()),
                shown(chromedriver.as_deref()),
            );
            assert!(!in_ci(env), "CI is set, so this is a failure: {reason}");
            Err(reason)
        }
    }
}

fn shown(path: Option<&Path>) -> String {
    path.map_or_else(|| "no".to_owned(), |path| path.display().to_string())
}

/// `$variable` when set, else the first of `names` found on the `$PATH`.
fn program(env: Env<'_>, variable: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = env(variable).filter(|path| !path.is_empty()) {
        let path = PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    let dirs = env("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&dirs)
            .map(|dir| dir.join(name))
            .find(|path| path.is_file())
    })
}

/// The folder under `target/` where the browser tests write: screenshots,
/// the driver's log, the browser profiles (removed after each test).
/// Created, and written without `..` (Chromium's `--user-data-dir` with a
/// `..` in it leaves chromedriver waiting for the browser forever).
pub fn output_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    let dir = target.join("console");
    std::fs::create_dir_all(&dir).unwrap_or_else(|error| panic!("{dir:?}: {error}"));
    std::fs::canonicalize(&dir).unwrap_or_else(|error| panic!("{dir:?}: {error}"))
}

/// A running chromedriver, alone in its process group with the browsers it
/// starts; dropping it kills the group.
#[derive(Debug)]
pub struct Driver {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Its log (and the browser's): kept when the test fails.
    log: PathBuf,
}

impl Driver {
    /// Starts `chromedriver` on a free loopback port and waits (at most
    /// [`DRIVER_START`]) until it answers `GET /status` ready. A port
    /// taken between the probe and the start is tried again, three times
    /// in all.
    ///
    /// # Panics
    ///
    /// When it does not start or answer in time.
    pub async fn start(programs: &Programs, http: &reqwest::Client) -> Driver {
        let mut last = String::new();
        for _ in 0..3 {
            match Driver::try_start(programs, http).await {
                Ok(driver) => return driver,
                Err(why) => last = why,
            }
        }
        panic!("chromedriver did not start: {last}");
    }

    async fn try_start(programs: &Programs, http: &reqwest::Client) -> Result<Driver, String> {
        let port = free_port().map_err(|error| format!("no free loopback port: {error}"))?;
        let log_path = output_dir().join(format!("chromedriver-{port}.log"));
        let log = File::create(&log_path).map_err(|error| format!("the driver's log: {error}"))?;
        let child = {
            use std::os::unix::process::CommandExt;
            Command::new(&programs.chromedriver)
                .arg(format!("--port={port}"))
                .arg("--allowed-ips=127.0.0.1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                // Its own group, so the browsers it starts go with it.
                .process_group(0)
                .spawn()
                .map_err(|error| format!("{}: {error}", programs.chromedriver.display()))?
        };
        let mut driver = Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            log: log_path,
        };
        let status = format!("{}/status", driver.url);
        let started = tokio::time::Instant::now();
        loop {
            if let Ok(Some(code)) = driver.child.try_wait() {
                return Err(format!("chromedriver exited with {code}"));
            }
            let answer = match http.get(&status).send().await {
                Ok(response) => response.json::<serde_json::Value>().await.ok(),
                Err(_) => None,
            };
            if answer.is_some_and(|body| body["value"]["ready"] == true) {
                return Ok(driver);
            }
            if started.elapsed() >= DRIVER_START {
                return Err(format!(
                    "no ready answer at {status} within {DRIVER_START:?}"
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Kills the driver's process group (the driver and every browser
    /// process it started) and reaps the driver.
    fn stop(&mut self) {
        // The group id is the driver's pid (process_group(0)).
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop();
        if std::thread::panicking() {
            eprintln!("chromedriver's log: {}", self.log.display());
        } else {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

/// A port free on 127.0.0.1 a moment ago.
fn free_port() -> std::io::Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}
