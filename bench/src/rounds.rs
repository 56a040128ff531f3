//! Measuring servers under load in rounds: alternating two servers so the
//! machine's noise hits both, one round's figures, and the rounds merged.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{bail, Result};

use tokio::time::Instant;

use super::cpu::{cpu_time, machine_cpu_time};
use super::load::{self, Outcome, Plan};
use super::Options;
use crate::process::ServerGuard;

/// CPU use during a measured window, each as a share of one core in percent.
#[derive(Clone, Copy, Default)]
struct Cpu {
    client: Option<f64>,
    server: Option<f64>,
    /// The whole machine (all processes, all cores).
    machine: Option<f64>,
}

/// Two servers under the same load in alternating rounds, so the machine's
/// noise hits both: each server's rounds as one outcome.
pub(super) async fn alternate(
    (a, a_path): (&ServerGuard, &'static str),
    (b, b_path): (&ServerGuard, &'static str),
    connections: usize,
    options: &Options,
) -> Result<(Outcome, Outcome)> {
    let (warmup, window) = (options.warmup(), options.duration);
    let (mut a_runs, mut b_runs) = (Vec::new(), Vec::new());
    for _ in 0..options.rounds() {
        a_runs.push(measure(a, a_path, connections, warmup, window).await?);
        b_runs.push(measure(b, b_path, connections, warmup, window).await?);
    }
    Ok((merge(&a_runs)?, merge(&b_runs)?))
}

/// Several rounds of one server as one outcome.
fn merge(runs: &[Outcome]) -> Result<Outcome> {
    let mut all = Outcome {
        ok: 0,
        non_ok: BTreeMap::new(),
        errors: 0,
        first_error: None,
        latencies: Vec::new(),
        window: Duration::ZERO,
    };
    for run in runs {
        all.ok += run.ok;
        for (status, n) in &run.non_ok {
            *all.non_ok.entry(*status).or_default() += n;
        }
        all.errors += run.errors;
        if all.first_error.is_none() {
            all.first_error.clone_from(&run.first_error);
        }
        all.latencies.extend(&run.latencies);
        all.window += run.window;
    }
    all.latencies.sort_unstable();
    if all.ok == 0 || all.errors > 0 || all.non_ok_total() > 0 {
        bail!(
            "invalid run: {} x 200, {} other statuses, {} transport errors{}",
            all.ok,
            all.non_ok_total(),
            all.errors,
            all.first_error
                .as_deref()
                .map(|e| format!(" (first: {e})"))
                .unwrap_or_default()
        );
    }
    Ok(all)
}

/// The first of `paths` that answers 200 on `guard`'s server.
pub(super) async fn pick_path(guard: &ServerGuard, paths: &[&'static str]) -> Result<&'static str> {
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
    connections: usize,
    warmup: Duration,
    duration: Duration,
) -> Result<Outcome> {
    let start = Instant::now();
    let plan = Plan {
        addr: guard.addr,
        path,
        connections,
        start,
        warmup,
        duration,
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
        tokio::time::sleep_until(start + warmup).await;
        let a = sample();
        tokio::time::sleep_until(start + warmup + duration).await;
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
    let outcome = outcome?;
    println!(
        "    {}: {:.0} req/s at {connections} connections (CPU: client {:.0}%, server {:.0}%, machine {:.0}%)",
        guard.addr,
        outcome.requests_per_sec(),
        cpu.client.unwrap_or(f64::NAN),
        cpu.server.unwrap_or(f64::NAN),
        cpu.machine.unwrap_or(f64::NAN)
    );
    Ok(outcome)
}
