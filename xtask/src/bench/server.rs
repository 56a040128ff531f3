//! Child servers for the benchmark: a guard that kills the child on drop,
//! free loopback ports, readiness polling and CPU-time readings.

use std::fs::File;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use tokio::time::Instant;

use super::load;

/// A running child server. Dropping it kills the child and reaps it, so the
/// server goes away on every exit path of the benchmark: success, error,
/// panic (unwinding), and a signal turned into an early return.
pub struct ServerGuard {
    name: &'static str,
    child: Child,
    pub addr: SocketAddr,
}

impl ServerGuard {
    /// Starts `cmd` with its output appended to `log`.
    pub fn spawn(
        name: &'static str,
        mut cmd: Command,
        addr: SocketAddr,
        log: &Path,
    ) -> Result<Self> {
        let out = File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let err = out
            .try_clone()
            .with_context(|| format!("opening {} twice", log.display()))?;
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err));
        let child = cmd
            .spawn()
            .with_context(|| format!("{name}: cannot start {:?}", cmd.get_program()))?;
        Ok(Self { name, child, addr })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits until `path` answers with any HTTP response, the child exits,
    /// or `limit` passes.
    pub async fn wait_ready(&mut self, path: &str, limit: Duration, log: &Path) -> Result<()> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self
                .child
                .try_wait()
                .with_context(|| format!("{}: checking the child", self.name))?
            {
                bail!(
                    "{} exited before answering ({status}); see {}",
                    self.name,
                    log.display()
                );
            }
            if load::probe(self.addr, path, Duration::from_secs(2))
                .await
                .is_ok()
            {
                return Ok(());
            }
            if Instant::now() >= deadline {
                bail!(
                    "{} did not answer on {} within {} s; see {}",
                    self.name,
                    self.addr,
                    limit.as_secs(),
                    log.display()
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Kills and reaps the child now (also done on drop).
    pub fn stop(mut self) {
        self.kill();
    }

    fn kill(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for ServerGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A loopback address with a port that was free a moment ago.
pub fn free_loopback_addr() -> Result<SocketAddr> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .context("binding 127.0.0.1:0 to find a free port")?;
    listener
        .local_addr()
        .context("reading the address of a bound socket")
}

/// CPU time (user + system) used so far by a process, from
/// `/proc/<pid>/stat` (Linux); `None` where that cannot be read.
pub fn cpu_time(pid: Option<u32>) -> Option<Duration> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/stat"),
        None => "/proc/self/stat".to_owned(),
    };
    let stat = std::fs::read_to_string(path).ok()?;
    parse_cpu_ticks(&stat).map(|ticks| Duration::from_millis(ticks * 1000 / CLOCK_TICKS_PER_SEC))
}

/// CPU time spent busy by the whole machine so far (all cores added up:
/// user, nice, system, irq and softirq of the `cpu` line of `/proc/stat`);
/// `None` where that cannot be read.
pub fn machine_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_machine_busy_ticks(&stat)
        .map(|ticks| Duration::from_millis(ticks * 1000 / CLOCK_TICKS_PER_SEC))
}

fn parse_machine_busy_ticks(stat: &str) -> Option<u64> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    // user nice system idle iowait irq softirq ...
    let fields: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(7)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match fields[..] {
        [user, nice, system, _idle, _iowait, irq, softirq] => {
            Some(user + nice + system + irq + softirq)
        }
        _ => None,
    }
}

/// `/proc` reports times in USER_HZ, which Linux fixes at 100 for userspace.
const CLOCK_TICKS_PER_SEC: u64 = 100;

/// utime + stime (fields 14 and 15) of a `/proc/<pid>/stat` line. The
/// command name (field 2) is in parentheses and may hold spaces, so fields
/// are counted from the last `)`.
fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::{parse_cpu_ticks, parse_machine_busy_ticks};

    #[test]
    fn parses_proc_stat() {
        let line = "1234 (node (x) y) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 11 0 5000 1000 200";
        assert_eq!(parse_cpu_ticks(line), Some(281));
        assert_eq!(parse_cpu_ticks("garbage"), None);
    }

    #[test]
    fn parses_machine_stat() {
        let stat = "cpu  100 2 30 5000 7 1 4 0 0 0\ncpu0 50 1 15 2500 3 0 2 0 0 0\n";
        assert_eq!(parse_machine_busy_ticks(stat), Some(137));
        assert_eq!(parse_machine_busy_ticks("cpu0 1 2\n"), None);
    }
}
