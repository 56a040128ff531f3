//! `sdk_vs_raw`: the `crossborder` client against plain `reqwest` sending
//! the same requests (`GET /api/balance/NGN` and `GET /api/qoutes/USD/NGN/100`,
//! alternately) through the same connection pool, each from `tasks`
//! concurrent tasks on this process's single-threaded runtime. The raw side
//! decodes each body into `serde_json::Value`, as any caller would; the SDK
//! side does what the SDK does (validation, typed decoding, retries policy,
//! tracing spans).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use crossborder::{types::QuoteRequest, Client, Currency, Decimal};
use tokio::time::Instant;

use super::cpu::cpu_time;
use super::figure::Figure;
use super::load::{API_KEY, API_KEY_HEADER};
use super::Options;
use crate::process::ServerGuard;

/// One side of the comparison.
pub enum Side {
    Sdk(Client),
    /// The generated client alone (`Client::low_level`), for profiling
    /// where the SDK's cost lies (`crossborder-bench calls`).
    Generated(Client),
    Raw {
        http: reqwest::Client,
        balance: String,
        quote: String,
    },
}

impl Side {
    /// Both sides for the API at `base_url`, sharing one connection pool.
    pub fn pair(base_url: &str) -> Result<(Side, Side)> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .context("building the reqwest client")?;
        let sdk = Client::builder()
            .api_key(API_KEY)
            .base_url(base_url)
            .http_client(http.clone())
            .build()
            .map_err(|e| anyhow!("building the SDK client: {e}"))?;
        let raw = Side::Raw {
            http,
            balance: format!("{base_url}/api/balance/NGN"),
            quote: format!("{base_url}/api/qoutes/USD/NGN/100"),
        };
        Ok((Side::Sdk(sdk), raw))
    }

    async fn call(&self, i: u64) -> Result<()> {
        match self {
            Side::Sdk(client) => if i.is_multiple_of(2) {
                client.wallet().balance(Currency::Ngn).await.map(drop)
            } else {
                let request = QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::ONE_HUNDRED);
                client.quotes().get(request).await.map(drop)
            }
            .map_err(|e| anyhow!("SDK: {e}")),
            Side::Generated(client) => {
                let api = client.low_level();
                if i.is_multiple_of(2) {
                    api.get_balance()
                        .currency(Currency::Ngn)
                        .send()
                        .await
                        .map(drop)
                } else {
                    api.get_quote()
                        .from_currency(Currency::Usd)
                        .to_currency(Currency::Ngn)
                        .amount(crossborder_api::decimal::Amount::new(Decimal::ONE_HUNDRED))
                        .send()
                        .await
                        .map(drop)
                }
                .map_err(|e| anyhow!("generated client: {e}"))
            }
            Side::Raw {
                http,
                balance,
                quote,
            } => {
                let url = if i.is_multiple_of(2) { balance } else { quote };
                let response = http
                    .get(url)
                    .header(API_KEY_HEADER, API_KEY)
                    .send()
                    .await
                    .context("raw: sending")?;
                if response.status() != reqwest::StatusCode::OK {
                    bail!("raw: {url} answered {}", response.status());
                }
                response
                    .json::<serde_json::Value>()
                    .await
                    .map(drop)
                    .context("raw: decoding")
            }
        }
    }
}

/// What one side achieved in one window.
pub struct Throughput {
    /// Completed calls per second.
    pub calls_per_sec: f64,
    /// This process's CPU time (user and system) per completed call, in
    /// microseconds: the client's own cost, which the machine's noise moves
    /// far less than the rate, since the server shares the cores.
    pub cpu_us_per_call: Option<f64>,
}

/// Completed calls per second of `side` from `tasks` tasks over `window`,
/// after `warmup`, and the client's CPU time per call. Any failed call
/// fails the run: a figure from a run with errors would be meaningless.
pub async fn throughput(
    side: Arc<Side>,
    tasks: usize,
    warmup: Duration,
    window: Duration,
) -> Result<Throughput> {
    let measure_from = Instant::now() + warmup;
    let end = measure_from + window;
    let mut handles = Vec::with_capacity(tasks);
    for task in 0..tasks {
        let side = side.clone();
        handles.push(tokio::spawn(async move {
            let mut counted = 0u64;
            let mut i = task as u64;
            while Instant::now() < end {
                side.call(i).await?;
                i += 1;
                let done = Instant::now();
                if done >= measure_from && done < end {
                    counted += 1;
                }
            }
            anyhow::Ok(counted)
        }));
    }
    let sampler = tokio::spawn(async move {
        tokio::time::sleep_until(measure_from).await;
        let start = cpu_time(None);
        tokio::time::sleep_until(end).await;
        start.zip(cpu_time(None))
    });
    let mut total = 0;
    for handle in handles {
        total += handle.await.context("a load task panicked")??;
    }
    let cpu = sampler.await.context("the CPU sampler panicked")?;
    Ok(Throughput {
        calls_per_sec: total as f64 / window.as_secs_f64(),
        cpu_us_per_call: cpu.and_then(|(a, b)| {
            let used = b.checked_sub(a)?;
            (total > 0).then(|| used.as_secs_f64() * 1e6 / total as f64)
        }),
    })
}

/// Which requests [`calls`] sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Calls {
    /// Balance and quote alternately, as `sdk_vs_raw`.
    Both,
    /// `GET /api/balance/NGN` only.
    Balance,
    /// `GET /api/qoutes/USD/NGN/100` only.
    Quote,
}

/// Which client [`calls`] drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// The SDK.
    Sdk,
    /// The generated client alone.
    Generated,
    /// Plain reqwest, the body into `serde_json::Value`.
    Raw,
}

/// `crossborder-bench calls`: exactly `count` calls of one side against a
/// running sandbox at `base_url`, from `tasks` tasks on one thread, for a
/// profiler (`valgrind --tool=callgrind` counts the same instructions
/// whatever else the machine does).
pub fn calls(base_url: &str, which: Which, kind: Calls, count: u64, tasks: u64) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("building the tokio runtime")?;
    runtime.block_on(async {
        let (sdk, raw) = Side::pair(base_url)?;
        let side = Arc::new(match (which, sdk) {
            (Which::Sdk, sdk) => sdk,
            (Which::Generated, Side::Sdk(client)) => Side::Generated(client),
            (Which::Generated, _) => bail!("the pair's first side is the SDK"),
            (Which::Raw, _) => raw,
        });
        let next = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let started = std::time::Instant::now();
        let mut handles = Vec::new();
        for _ in 0..tasks {
            let (side, next) = (side.clone(), next.clone());
            handles.push(tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= count {
                        return anyhow::Ok(());
                    }
                    let i = match kind {
                        Calls::Both => i,
                        Calls::Balance => 0,
                        Calls::Quote => 1,
                    };
                    side.call(i).await?;
                }
            }));
        }
        for handle in handles {
            handle.await.context("a task panicked")??;
        }
        println!(
            "{count} {kind:?} calls of {which:?} from {tasks} tasks in {:.2} s",
            started.elapsed().as_secs_f64()
        );
        Ok(())
    })
}

/// The SDK against plain reqwest on the same sandbox and pool, from 64 and
/// from 8 tasks, in many short rounds (500 ms of each side after 200 ms of
/// warm-up, as many rounds as the other ratios' measured time: 24 by
/// default), the side that goes first alternating. This machine's speed
/// drifts over seconds (the same 10,000 calls take from 0.18 to 0.35 s,
/// run after run), so only rounds shorter than the drift meet both sides
/// with the same machine; and the sandbox's state grows with every quote,
/// so whichever side always ran second would meet a slightly busier server.
pub async fn sdk_vs_raw(sandbox: &ServerGuard, options: &Options) -> Result<Vec<Figure>> {
    let window = if options.quick {
        Duration::from_millis(300)
    } else {
        Duration::from_millis(500)
    };
    let warmup = Duration::from_millis(200);
    let measured = options.duration * options.rounds() as u32;
    let rounds = (measured.as_millis() / window.as_millis()).max(2) as usize;
    let base_url = format!("http://{}/v1", sandbox.addr);
    let (sdk, raw) = Side::pair(&base_url)?;
    let (sdk, raw) = (Arc::new(sdk), Arc::new(raw));
    let mut figures = Vec::new();
    for (name, tasks) in [("sdk_vs_raw", 64), ("sdk_vs_raw_8", 8)] {
        let (mut sdk_rate, mut raw_rate) = (0.0, 0.0);
        let (mut sdk_cpu, mut raw_cpu) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let (s, r) = if round % 2 == 0 {
                let s = throughput(sdk.clone(), tasks, warmup, window).await?;
                (s, throughput(raw.clone(), tasks, warmup, window).await?)
            } else {
                let r = throughput(raw.clone(), tasks, warmup, window).await?;
                (throughput(sdk.clone(), tasks, warmup, window).await?, r)
            };
            let us = |t: &Throughput| t.cpu_us_per_call.unwrap_or(f64::NAN);
            println!(
                "    {tasks} tasks, round {}/{rounds}: SDK {:.0} calls/s ({:.1} us CPU per call), reqwest {:.0} calls/s ({:.1} us)",
                round + 1,
                s.calls_per_sec,
                us(&s),
                r.calls_per_sec,
                us(&r)
            );
            sdk_rate += s.calls_per_sec;
            raw_rate += r.calls_per_sec;
            sdk_cpu.extend(s.cpu_us_per_call);
            raw_cpu.extend(r.cpu_us_per_call);
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        figures.push(Figure::ratio(
            name,
            sdk_rate,
            raw_rate,
            0.95,
            format!(
                "{:.0} / {:.0} calls/s, balance and quote alternately, {tasks} tasks, same reqwest pool, {rounds} alternating rounds of {} ms; client CPU {:.1} / {:.1} us per call",
                sdk_rate / rounds as f64,
                raw_rate / rounds as f64,
                window.as_millis(),
                mean(&sdk_cpu),
                mean(&raw_cpu)
            ),
        ));
    }
    Ok(figures)
}
