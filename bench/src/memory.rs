//! `sandbox_bytes_per_collection`: the growth of a fresh sandbox's
//! resident memory per stored collection.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use serde_json::json;

use super::figure::Figure;
use super::load::{API_KEY, API_KEY_HEADER};
use super::servers::Servers;
use super::Options;

impl Servers {
    /// Resident memory growth of a fresh sandbox per stored collection.
    pub(super) async fn bytes_per_collection(&self, options: &Options) -> Result<Figure> {
        let sandbox = self
            .start(
                "sandbox-memory",
                &self.sandbox,
                &Self::sandbox_args(),
                Duration::from_secs(30),
            )
            .await?;
        let count = options.collections();
        let base_url = format!("http://{}/v1", sandbox.addr);
        let http = reqwest::Client::new();
        // One collection first, so one-off allocations are not counted.
        create_collection(&http, &base_url, 0).await?;
        let before = resident_bytes(sandbox.pid())?;
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(1));
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let (http, base_url, next) = (http.clone(), base_url.clone(), next.clone());
            tasks.push(tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i > count {
                        return anyhow::Ok(());
                    }
                    create_collection(&http, &base_url, i).await?;
                }
            }));
        }
        for task in tasks {
            task.await.context("a load task panicked")??;
        }
        let after = resident_bytes(sandbox.pid())?;
        sandbox.stop();
        Ok(Figure {
            name: "sandbox_bytes_per_collection",
            value: after.saturating_sub(before) as f64 / count as f64,
            goal: 2048.0,
            below: true,
            unit: "bytes",
            detail: format!("resident memory {before} -> {after} bytes over {count} collections"),
        })
    }
}

async fn create_collection(http: &reqwest::Client, base_url: &str, i: usize) -> Result<()> {
    let body = json!({"amount": 5000, "fromCurrency": "NGN", "toCurrency": "NGN",
                      "paymentReference": format!("bench-{i}")});
    let response = http
        .post(format!("{base_url}/api/initiate-payment"))
        .header(API_KEY_HEADER, API_KEY)
        .json(&body)
        .send()
        .await
        .context("creating a collection")?;
    if !response.status().is_success() {
        bail!("creating collection {i}: {}", response.status());
    }
    Ok(())
}

/// VmRSS of `pid`, from `/proc`.
fn resident_bytes(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("reading /proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .context("no VmRSS in /proc/<pid>/status")
}
