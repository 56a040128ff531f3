//! CPU-time readings of the benchmark's servers (the servers themselves
//! are started with [`crate::process`]).

use std::time::Duration;

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
