//! The load generator: `connections` keep-alive HTTP/1.1 connections (hyper's
//! connection-level client, one TCP connection per task, no pool), each
//! sending the same GET back to back for a warm-up and then a measured window.
//! It runs on whatever runtime it is polled on; the benchmark uses a
//! single-threaded one so the client takes at most one core.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::time::Instant;

/// The API key header sent with every request.
pub const API_KEY_HEADER: &str = "x-api-key";
/// The sandbox's staging key (also accepted by Prism, which only checks presence).
pub use crossborder_core::environment::SANDBOX_STAGING_KEY as API_KEY;

/// How long after the end of the window a request still in flight may take
/// before its connection task gives up (so the run always ends by itself).
const GRACE: Duration = Duration::from_secs(5);

/// What to send and for how long.
#[derive(Clone, Copy)]
pub struct Plan<'a> {
    pub addr: SocketAddr,
    pub path: &'a str,
    pub connections: usize,
    /// When the warm-up starts (the caller samples CPU time against it).
    pub start: Instant,
    pub warmup: Duration,
    pub duration: Duration,
}

/// Counts and latencies of the measured window.
pub struct Outcome {
    /// 200 responses completed inside the window.
    pub ok: u64,
    /// Other statuses, by status, during the whole run (warm-up included).
    pub non_ok: BTreeMap<u16, u64>,
    /// Transport errors (connect, send, body) during the whole run.
    pub errors: u64,
    pub first_error: Option<String>,
    /// Latency of each counted 200 response, sorted.
    pub latencies: Vec<Duration>,
    /// The measured window as the client saw it.
    pub window: Duration,
}

impl Outcome {
    pub fn non_ok_total(&self) -> u64 {
        self.non_ok.values().sum()
    }

    pub fn requests_per_sec(&self) -> f64 {
        let secs = self.window.as_secs_f64();
        if secs > 0.0 {
            self.ok as f64 / secs
        } else {
            0.0
        }
    }

    /// The `q` quantile (0..=1) of the 200 latencies, nearest rank.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        if self.latencies.is_empty() {
            return None;
        }
        let rank = (q * self.latencies.len() as f64).ceil() as usize;
        let index = rank.clamp(1, self.latencies.len()) - 1;
        self.latencies.get(index).copied()
    }
}

#[derive(Default)]
struct ConnStats {
    ok: u64,
    non_ok: BTreeMap<u16, u64>,
    errors: u64,
    first_error: Option<String>,
    latencies: Vec<Duration>,
}

impl ConnStats {
    fn error(&mut self, err: impl std::fmt::Display) {
        self.errors += 1;
        if self.first_error.is_none() {
            self.first_error = Some(err.to_string());
        }
    }
}

/// Runs the plan: all connections start together, requests completed
/// during the warm-up are discarded, requests completed during the next
/// `duration` are counted, and every task stops at the end of the window.
pub async fn run(plan: Plan<'_>) -> Result<Outcome> {
    let measure_from = plan.start + plan.warmup;
    let measure_to = measure_from + plan.duration;
    let mut tasks = Vec::with_capacity(plan.connections);
    for _ in 0..plan.connections {
        let addr = plan.addr;
        let path = plan.path.to_owned();
        tasks.push(tokio::spawn(async move {
            connection(addr, &path, measure_from, measure_to).await
        }));
    }
    let mut total = ConnStats::default();
    for task in tasks {
        let stats = task
            .await
            .map_err(|e| anyhow!("a load connection task failed: {e}"))?;
        total.ok += stats.ok;
        for (status, n) in stats.non_ok {
            *total.non_ok.entry(status).or_default() += n;
        }
        total.errors += stats.errors;
        if total.first_error.is_none() {
            total.first_error = stats.first_error;
        }
        total.latencies.extend(stats.latencies);
    }
    total.latencies.sort_unstable();
    Ok(Outcome {
        ok: total.ok,
        non_ok: total.non_ok,
        errors: total.errors,
        first_error: total.first_error,
        latencies: total.latencies,
        window: measure_to - measure_from,
    })
}

/// One keep-alive connection sending requests back to back until `to`;
/// reconnects after a transport error (counted).
async fn connection(addr: SocketAddr, path: &str, from: Instant, to: Instant) -> ConnStats {
    let mut stats = ConnStats::default();
    let mut sender: Option<SendRequest<Empty<Bytes>>> = None;
    let give_up = to + GRACE;
    while Instant::now() < to {
        let mut s = match sender.take() {
            Some(s) => s,
            None => match tokio::time::timeout_at(give_up, connect(addr)).await {
                Ok(Ok(s)) => s,
                Ok(Err(e)) => {
                    stats.error(format!("{e:#}"));
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
                Err(_) => {
                    stats.error("connect timed out");
                    break;
                }
            },
        };
        let request = match build_request(addr, path) {
            Ok(r) => r,
            Err(e) => {
                stats.error(format!("{e:#}"));
                break;
            }
        };
        let sent = Instant::now();
        match tokio::time::timeout_at(give_up, exchange(&mut s, request)).await {
            Ok(Ok(status)) => {
                let done = Instant::now();
                if status != StatusCode::OK {
                    *stats.non_ok.entry(status.as_u16()).or_default() += 1;
                } else if done >= from && done < to {
                    stats.ok += 1;
                    stats.latencies.push(done - sent);
                }
                sender = Some(s);
            }
            Ok(Err(e)) => stats.error(format!("{e:#}")),
            Err(_) => {
                stats.error("request still unanswered 5 s after the end of the run");
                break;
            }
        }
    }
    stats
}

async fn connect(addr: SocketAddr) -> Result<SendRequest<Empty<Bytes>>> {
    let stream = TcpStream::connect(addr)
        .await
        .with_context(|| format!("connecting to {addr}"))?;
    stream.set_nodelay(true).context("setting TCP_NODELAY")?;
    let (sender, conn) = http1::handshake(TokioIo::new(stream))
        .await
        .context("HTTP/1.1 handshake")?;
    // Drives the connection; ends when the sender is dropped or the peer closes.
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

fn build_request(addr: SocketAddr, path: &str) -> Result<Request<Empty<Bytes>>> {
    Request::get(path)
        .header(hyper::header::HOST, addr.to_string())
        .header(API_KEY_HEADER, API_KEY)
        .body(Empty::new())
        .context("building the request")
}

/// Sends one request and reads the whole body (needed to reuse the connection).
async fn exchange(
    s: &mut SendRequest<Empty<Bytes>>,
    request: Request<Empty<Bytes>>,
) -> Result<StatusCode> {
    s.ready().await.context("connection closed")?;
    let response = s.send_request(request).await.context("sending")?;
    let status = response.status();
    response
        .into_body()
        .collect()
        .await
        .context("reading the body")?;
    Ok(status)
}

/// One request on a fresh connection: the status and body, within `limit`.
pub async fn probe(addr: SocketAddr, path: &str, limit: Duration) -> Result<(StatusCode, Bytes)> {
    let attempt = async {
        let mut s = connect(addr).await?;
        s.ready().await.context("connection closed")?;
        let response = s
            .send_request(build_request(addr, path)?)
            .await
            .context("sending")?;
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .context("reading the body")?
            .to_bytes();
        Ok((status, body))
    };
    tokio::time::timeout(limit, attempt)
        .await
        .map_err(|_| anyhow!("no answer from {addr}{path} within {} s", limit.as_secs()))?
}

#[cfg(test)]
mod tests {
    use super::Outcome;
    use std::collections::BTreeMap;
    use std::time::Duration;

    #[test]
    fn quantiles_use_nearest_rank() {
        let outcome = Outcome {
            ok: 100,
            non_ok: BTreeMap::new(),
            errors: 0,
            first_error: None,
            latencies: (1..=100).map(Duration::from_micros).collect(),
            window: Duration::from_secs(2),
        };
        assert_eq!(outcome.quantile(0.5), Some(Duration::from_micros(50)));
        assert_eq!(outcome.quantile(0.99), Some(Duration::from_micros(99)));
        assert_eq!(outcome.quantile(1.0), Some(Duration::from_micros(100)));
        assert!((outcome.requests_per_sec() - 50.0).abs() < 1e-9);
    }
}
