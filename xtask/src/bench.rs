//! `cargo xtask bench`: requests per second of the local sandbox against a
//! Prism mock of the same spec, on this machine, for one read:
//! `GET /v1/api/balance/NGN` with `x-api-key: test_sandbox_key`.
//!
//! `cargo xtask` builds this tool unoptimised, so `bench` first replaces
//! itself with a release build of xtask (an unoptimised client would be the
//! bottleneck). The sandbox is built in release and started on a free
//! loopback port, measured, and stopped; then Prism (`prism mock`, installed
//! under `target/tools/`) is measured the same way twice: with its default
//! settings (it logs every request) and with `--verboseLevel error`. Prism
//! serves the paths without the server URL's `/v1`; the path that answers 200
//! is used. Each server gets the same load from a client in this process:
//! keep-alive HTTP/1.1 connections on a single-threaded tokio runtime (so the
//! client takes at most one of the machine's cores), a warm-up, then a
//! measured window. Only 200 responses are counted; any other status or a
//! transport error makes the run invalid. CPU use of the client, the server
//! and the rest of the machine during the window is reported next to the
//! figures, which are printed and written to `target/bench/balance.json`.
//!
//! Each server is a child killed by a guard on drop; SIGINT, SIGTERM and
//! SIGHUP end the run through the same path, so no server outlives it.

pub(crate) mod load;
mod micro;
mod server;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};
use tokio::time::Instant;

use self::load::{Outcome, Plan, API_KEY, API_KEY_HEADER};
use self::server::{cpu_time, machine_cpu_time};
use crate::process::{cargo_build, free_loopback_addr, Profile, ServerGuard};
use crate::tools::{self, NPM_PACKAGES};
use crate::SPEC_PATH;

/// The request measured, as the API documents it (server URL `.../v1`).
const BALANCE_PATH: &str = "/v1/api/balance/NGN";
/// The same path without the server's `/v1` prefix (how Prism may serve it).
const BALANCE_PATH_NO_PREFIX: &str = "/api/balance/NGN";
const WARMUP: Duration = Duration::from_secs(1);
/// The ratio the issue asks for.
const GOAL_RATIO: f64 = 20.0;
const SANDBOX_PACKAGE: &str = "crossborder-sandbox";
const OUT_DIR: &str = "target/bench";
const OUT_FILE: &str = "target/bench/balance.json";
/// CPU (in % of one core) taken by other processes above which the
/// machine is reported as busy.
const BUSY_MACHINE_PERCENT: f64 = 25.0;

const CLIENT_NOTE: &str = "client, sandbox and Prism share this machine's cores; \
the load generator runs on one thread (tokio current_thread runtime, hyper HTTP/1.1 \
keep-alive, one connection per task), so it takes at most one core and leaves the \
rest to the server under test; its CPU use is reported to show whether it was the limit";

pub struct Options {
    pub duration: Duration,
    pub connections: usize,
}

/// A server to measure: how to start it and where the balance is.
struct ServerSpec {
    name: &'static str,
    /// What it is, for the JSON.
    what: String,
    program: PathBuf,
    /// Arguments; [`PORT`] stands for the port.
    args: Vec<String>,
    /// How long it may take to answer after start.
    ready_limit: Duration,
    /// Candidate URL paths of the balance, the first answering 200 is used.
    paths: &'static [&'static str],
}

/// Placeholder for the port in [`ServerSpec::args`].
const PORT: &str = "{port}";

/// CPU use during the measured window, each as a share of one core in percent.
#[derive(Clone, Copy, Default)]
struct Cpu {
    client: Option<f64>,
    server: Option<f64>,
    /// The whole machine (all processes, all cores).
    machine: Option<f64>,
}

impl Cpu {
    /// What the machine spent on processes other than the client and server.
    fn others(&self) -> Option<f64> {
        Some((self.machine? - self.client? - self.server?).max(0.0))
    }
}

/// The figures of one server.
struct Measured {
    name: &'static str,
    what: String,
    command: String,
    url: String,
    outcome: Outcome,
    cpu: Cpu,
}

impl Measured {
    fn valid(&self) -> bool {
        self.outcome.ok > 0 && self.outcome.errors == 0 && self.outcome.non_ok_total() == 0
    }

    fn rps(&self) -> f64 {
        self.outcome.requests_per_sec()
    }

    fn to_json(&self) -> Value {
        let o = &self.outcome;
        let micros = |d: Option<Duration>| d.map(|d| d.as_micros() as u64);
        let pct = |c: Option<f64>| c.map(|c| round(c, 1));
        json!({
            "what": self.what,
            "command": self.command,
            "url": self.url,
            "requests_per_sec": round(o.requests_per_sec(), 1),
            "latency_us": {
                "p50": micros(o.quantile(0.50)),
                "p90": micros(o.quantile(0.90)),
                "p99": micros(o.quantile(0.99)),
                "max": micros(o.latencies.last().copied()),
            },
            "ok_200": o.ok,
            "non_200": o.non_ok.iter().map(|(k, v)| (k.to_string(), *v)).collect::<BTreeMap<_, _>>(),
            "non_200_total": o.non_ok_total(),
            "transport_errors": o.errors,
            "first_error": o.first_error,
            "window_s": o.window.as_secs_f64(),
            "cpu_percent_of_one_core": {
                "client": pct(self.cpu.client),
                "server": pct(self.cpu.server),
                "machine": pct(self.cpu.machine),
                "other_processes": pct(self.cpu.others()),
            },
            "valid": self.valid(),
        })
    }
}

pub fn run(root: &Path, options: &Options) -> Result<()> {
    if cfg!(debug_assertions) {
        // `cargo xtask` builds this tool without optimisation; an unoptimised
        // hyper client would be the bottleneck, so measure with a release build.
        return reexec_release(root);
    }
    if !root.join(SPEC_PATH).exists() {
        bail!("{SPEC_PATH} does not exist");
    }
    let sandbox_bin = cargo_build(root, SANDBOX_PACKAGE, Profile::Release)?;
    let prism_bin = tools::node_bin(root)?.join("prism");
    if !prism_bin.exists() {
        bail!("{} is missing after the npm install", prism_bin.display());
    }
    let out_dir = root.join(OUT_DIR);
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;

    let prism_args = |extra: &[&str]| {
        ["mock", SPEC_PATH, "-p", PORT, "-h", "127.0.0.1"]
            .iter()
            .chain(extra)
            .map(|a| (*a).to_owned())
            .collect::<Vec<_>>()
    };
    let prism_pin = NPM_PACKAGES
        .iter()
        .find(|p| p.starts_with("@stoplight/prism-cli@"))
        .copied()
        .unwrap_or("@stoplight/prism-cli");
    let specs = [
        ServerSpec {
            name: "sandbox",
            what: format!("{SANDBOX_PACKAGE} (cargo build --release)"),
            program: sandbox_bin,
            args: vec!["--port".to_owned(), PORT.to_owned()],
            ready_limit: Duration::from_secs(30),
            paths: &[BALANCE_PATH],
        },
        ServerSpec {
            name: "prism",
            what: format!("{prism_pin}, default settings (logs each request at info)"),
            program: prism_bin.clone(),
            args: prism_args(&[]),
            ready_limit: Duration::from_secs(90),
            paths: &[BALANCE_PATH, BALANCE_PATH_NO_PREFIX],
        },
        ServerSpec {
            name: "prism-quiet",
            what: format!("{prism_pin}, --verboseLevel error (no per-request log)"),
            program: prism_bin,
            args: prism_args(&["--verboseLevel", "error"]),
            ready_limit: Duration::from_secs(90),
            paths: &[BALANCE_PATH, BALANCE_PATH_NO_PREFIX],
        },
    ];

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("building the tokio runtime")?;
    let measured = runtime.block_on(async {
        // Installed before any child starts: from here on a signal makes the
        // benchmark future below drop (killing the child) instead of killing
        // this process outright.
        let mut signals = Signals::install()?;
        tokio::select! {
            biased;
            name = signals.recv() => Err(anyhow!("interrupted by {name}; servers stopped")),
            r = measure_all(root, &specs, &out_dir, options) => r,
        }
    })?;
    drop(runtime);

    let micros = micro::run_all(root, options.duration.as_secs().max(1))?;
    report(root, options, &measured, &micros)
}

/// Measures each server in turn: only one runs at a time, so an idle server
/// takes no CPU from the measured one.
async fn measure_all(
    root: &Path,
    specs: &[ServerSpec],
    out_dir: &Path,
    options: &Options,
) -> Result<Vec<Measured>> {
    let mut all = Vec::with_capacity(specs.len());
    for spec in specs {
        let addr = free_loopback_addr()?;
        let port = addr.port().to_string();
        let args: Vec<String> = spec.args.iter().map(|a| a.replace(PORT, &port)).collect();
        let program = spec.program.strip_prefix(root).unwrap_or(&spec.program);
        let command = std::iter::once(program.display().to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let log = out_dir.join(format!("{}.log", spec.name));
        let mut cmd = Command::new(&spec.program);
        cmd.current_dir(root).args(&args);
        println!("==> {}: {command} (output: {})", spec.name, log.display());
        let mut guard = ServerGuard::spawn(spec.name, cmd, addr, &log)?;
        // Any HTTP answer (even a 404) means it is listening.
        guard
            .wait_ready(spec.paths[0], spec.ready_limit, &log)
            .await?;
        let path = pick_path(&guard, spec.paths).await?;
        let (outcome, cpu) = measure(&guard, path, options).await?;
        guard.stop();
        let m = Measured {
            name: spec.name,
            what: spec.what.clone(),
            command,
            url: format!("http://{addr}{path}"),
            outcome,
            cpu,
        };
        println!(
            "{}: {:.0} req/s, {} x 200, {} non-200, {} transport errors",
            m.name,
            m.rps(),
            m.outcome.ok,
            m.outcome.non_ok_total(),
            m.outcome.errors
        );
        all.push(m);
    }
    Ok(all)
}

/// The first of `paths` that answers 200 on `guard`'s server.
async fn pick_path(guard: &ServerGuard, paths: &[&'static str]) -> Result<&'static str> {
    let snippet = |body: &[u8]| {
        String::from_utf8_lossy(body)
            .chars()
            .take(160)
            .collect::<String>()
    };
    let mut seen = Vec::new();
    for &path in paths {
        let (status, body) = load::probe(guard.addr, path, Duration::from_secs(5)).await?;
        if status == hyper::StatusCode::OK {
            println!("GET {path} -> 200 {}", snippet(&body));
            return Ok(path);
        }
        seen.push(format!("{path} -> {status} {}", snippet(&body)));
    }
    bail!(
        "no path answered 200 on {}: {}",
        guard.addr,
        seen.join("; ")
    )
}

/// Runs the load against one server and samples CPU time at the edges of
/// the measured window.
async fn measure(
    guard: &ServerGuard,
    path: &'static str,
    options: &Options,
) -> Result<(Outcome, Cpu)> {
    let start = Instant::now();
    let plan = Plan {
        addr: guard.addr,
        path,
        connections: options.connections,
        start,
        warmup: WARMUP,
        duration: options.duration,
    };
    let pid = guard.pid();
    let sample = || {
        (
            Instant::now(),
            cpu_time(None),
            cpu_time(Some(pid)),
            machine_cpu_time(),
        )
    };
    let sampler = async {
        tokio::time::sleep_until(start + WARMUP).await;
        let a = sample();
        tokio::time::sleep_until(start + WARMUP + options.duration).await;
        (a, sample())
    };
    let (outcome, (a, b)) = tokio::join!(load::run(plan), sampler);
    let wall = b.0 - a.0;
    let share = |x: Option<Duration>, y: Option<Duration>| {
        let used = y?.checked_sub(x?)?;
        (!wall.is_zero()).then(|| 100.0 * used.as_secs_f64() / wall.as_secs_f64())
    };
    let cpu = Cpu {
        client: share(a.1, b.1),
        server: share(a.2, b.2),
        machine: share(a.3, b.3),
    };
    Ok((outcome?, cpu))
}

fn report(
    root: &Path,
    options: &Options,
    measured: &[Measured],
    micros: &[micro::MicroResult],
) -> Result<()> {
    let valid = measured.iter().all(Measured::valid);
    let nproc = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let command = std::iter::once("cargo xtask".to_owned())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let by_name = |name: &str| measured.iter().find(|m| m.name == name);
    let ratio = |over: &str| {
        let (s, o) = (by_name("sandbox")?, by_name(over)?);
        (o.rps() > 0.0).then(|| s.rps() / o.rps())
    };

    println!();
    println!(
        "GET {BALANCE_PATH} ({API_KEY_HEADER}: {API_KEY}), {} connections, {} s warm-up + {} s measured per server, nproc {nproc}",
        options.connections,
        WARMUP.as_secs(),
        options.duration.as_secs_f64()
    );
    println!(
        "{:<12} {:>9} {:>8} {:>8} {:>8} {:>7} {:>6} {:>7} {:>7} {:>7}",
        "server",
        "req/s",
        "p50 ms",
        "p99 ms",
        "200s",
        "non-200",
        "errors",
        "client",
        "server",
        "others"
    );
    let ms =
        |d: Option<Duration>| d.map_or("-".to_owned(), |d| format!("{:.3}", d.as_secs_f64() * 1e3));
    let pct = |c: Option<f64>| c.map_or("-".to_owned(), |c| format!("{c:.0}%"));
    for m in measured {
        println!(
            "{:<12} {:>9.0} {:>8} {:>8} {:>8} {:>7} {:>6} {:>7} {:>7} {:>7}",
            m.name,
            m.rps(),
            ms(m.outcome.quantile(0.50)),
            ms(m.outcome.quantile(0.99)),
            m.outcome.ok,
            m.outcome.non_ok_total(),
            m.outcome.errors,
            pct(m.cpu.client),
            pct(m.cpu.server),
            pct(m.cpu.others())
        );
    }
    let verdict = |r: Option<f64>| match r {
        Some(r) if r >= GOAL_RATIO => format!("{r:.1}x (goal >= {GOAL_RATIO:.0}x: met)"),
        Some(r) => format!("{r:.1}x (goal >= {GOAL_RATIO:.0}x: NOT met)"),
        None => "- (no 200 from prism)".to_owned(),
    };
    println!("ratio sandbox / prism:       {}", verdict(ratio("prism")));
    println!(
        "ratio sandbox / prism-quiet: {}",
        verdict(ratio("prism-quiet"))
    );
    println!("note: {CLIENT_NOTE}");
    println!(
        "note: client/server/others = CPU used during the measured window, in % of one core \
         (client: this process; server: the server process; others: the rest of the machine)"
    );
    let busiest = measured
        .iter()
        .filter_map(|m| m.cpu.others())
        .fold(0.0_f64, f64::max);
    if busiest > BUSY_MACHINE_PERCENT {
        println!(
            "warning: other processes used up to {busiest:.0}% of a core during a window; \
             the machine was not idle and the figures are lower than an idle machine gives"
        );
    }
    if !valid {
        println!("warning: the run is INVALID (non-200 responses or transport errors, see above)");
    }

    let servers: serde_json::Map<String, Value> = measured
        .iter()
        .map(|m| (m.name.to_owned(), m.to_json()))
        .collect();
    let doc = json!({
        "command": command,
        "date_utc": utc_now(),
        "machine": {
            "nproc": nproc,
            "os": std::env::consts::OS,
            "arch": std::env::consts::ARCH,
            "loadavg_after": std::fs::read_to_string("/proc/loadavg").ok().map(|s| s.trim().to_owned()),
            "node": command_line_output(Command::new("node").arg("--version")),
        },
        "git": git_state(root),
        "request": {
            "method": "GET",
            "path": BALANCE_PATH,
            "headers": { API_KEY_HEADER: API_KEY },
        },
        "load": {
            "connections": options.connections,
            "warmup_s": WARMUP.as_secs_f64(),
            "duration_s": options.duration.as_secs_f64(),
            "client": "xtask release build: hyper 1 HTTP/1.1 keep-alive, one TCP connection per task, tokio current_thread runtime (1 thread)",
            "counting": "200 responses completed inside the measured window; any non-200 or transport error makes the run invalid",
            "note": CLIENT_NOTE,
        },
        "servers": servers,
        "ratio_sandbox_over_prism": ratio("prism").map(|r| round(r, 2)),
        "ratio_sandbox_over_prism_quiet": ratio("prism-quiet").map(|r| round(r, 2)),
        "goal_ratio": GOAL_RATIO,
        "goal_met": ratio("prism").map(|r| r >= GOAL_RATIO),
        "goal_met_against_prism_quiet": ratio("prism-quiet").map(|r| r >= GOAL_RATIO),
        "valid": valid,
        "micro": micros
            .iter()
            .map(|m| (m.micro.name.to_owned(), m.to_json()))
            .collect::<serde_json::Map<String, Value>>(),
    });
    for m in micros {
        println!(
            "{}: {:.0} ns median (goal < {:.0} ns: {}) [{}]",
            m.micro.name,
            m.median_ns,
            m.micro.goal_ns,
            if m.met() { "met" } else { "NOT met" },
            m.micro.what
        );
    }
    let out = root.join(OUT_FILE);
    let text = serde_json::to_string_pretty(&doc).context("serialising the results")?;
    std::fs::write(&out, text + "\n").with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {OUT_FILE}");

    if !valid {
        let problems: Vec<String> = measured
            .iter()
            .filter(|m| !m.valid())
            .map(|m| {
                format!(
                    "{}: {} x 200, non-200 {:?}, {} transport errors{}",
                    m.name,
                    m.outcome.ok,
                    m.outcome.non_ok,
                    m.outcome.errors,
                    m.outcome
                        .first_error
                        .as_deref()
                        .map(|e| format!(" (first: {e})"))
                        .unwrap_or_default()
                )
            })
            .collect();
        bail!("the run is invalid: {}", problems.join("; "));
    }
    Ok(())
}

/// Replaces this (unoptimised) process with a release build of xtask run
/// with the same arguments.
fn reexec_release(root: &Path) -> Result<()> {
    let exe = cargo_build(root, "xtask", Profile::Release)?;
    let mut cmd = Command::new(&exe);
    cmd.args(std::env::args_os().skip(1));
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let err = cmd.exec();
        Err(err).with_context(|| format!("running {}", exe.display()))
    }
    #[cfg(not(unix))]
    {
        let status = cmd
            .status()
            .with_context(|| format!("running {}", exe.display()))?;
        if status.success() {
            Ok(())
        } else {
            bail!("{} failed ({status})", exe.display())
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP, caught (rather than killing the process) once
/// installed.
#[cfg(unix)]
struct Signals {
    int: tokio::signal::unix::Signal,
    term: tokio::signal::unix::Signal,
    hup: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl Signals {
    fn install() -> Result<Self> {
        use tokio::signal::unix::{signal, SignalKind};
        let install =
            |kind, name| signal(kind).with_context(|| format!("installing a {name} handler"));
        Ok(Self {
            int: install(SignalKind::interrupt(), "SIGINT")?,
            term: install(SignalKind::terminate(), "SIGTERM")?,
            hup: install(SignalKind::hangup(), "SIGHUP")?,
        })
    }

    /// The name of the first signal received.
    async fn recv(&mut self) -> &'static str {
        tokio::select! {
            _ = self.int.recv() => "SIGINT",
            _ = self.term.recv() => "SIGTERM",
            _ = self.hup.recv() => "SIGHUP",
        }
    }
}

/// Ctrl-C, caught once installed.
#[cfg(not(unix))]
struct Signals;

#[cfg(not(unix))]
impl Signals {
    fn install() -> Result<Self> {
        Ok(Self)
    }

    async fn recv(&mut self) -> &'static str {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "Ctrl-C",
            Err(_) => std::future::pending().await,
        }
    }
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// Trimmed stdout of a command that succeeded, or `None`.
fn command_line_output(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn git_state(root: &Path) -> Value {
    let head = command_line_output(
        Command::new("git")
            .current_dir(root)
            .args(["rev-parse", "HEAD"]),
    );
    let dirty = command_line_output(Command::new("git").current_dir(root).args([
        "status",
        "--porcelain",
        "--untracked-files=normal",
    ]))
    .map(|s| !s.is_empty());
    json!({ "head": head, "dirty": dirty })
}

/// Now as `YYYY-MM-DDTHH:MM:SSZ`, by the `time` crate (as the sandbox
/// formats its timestamps).
fn utc_now() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.replace_nanosecond(0)
        .unwrap_or(now)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::utc_now;

    #[test]
    fn the_report_date_is_rfc3339_to_the_second() {
        let now = utc_now();
        assert_eq!(now.len(), 20, "{now}");
        assert!(now.starts_with("20") && now.ends_with('Z'), "{now}");
        assert_eq!(&now[10..11], "T", "{now}");
    }
}
