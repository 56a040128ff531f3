//! A throwaway PostgreSQL server for tests: `initdb` and `pg_ctl` from
//! Debian's `postgresql` package (under `/usr/lib/postgresql/<version>/bin`,
//! off the PATH), a temporary data directory, a free port on 127.0.0.1,
//! and everything stopped and removed on drop.
//!
//! PostgreSQL refuses to run as root. When the tests run as root (as in
//! CI's containers), the server runs as the `postgres` system user the
//! package creates (`runuser -u postgres --`), in a directory handed to it.
//!
//! Tests that need it are marked `#[ignore = "needs PostgreSQL"]`, so a
//! plain `cargo test` lists them as ignored rather than passing them
//! unseen; `.ci/run` runs them (`-- --ignored`) with `CI` set. They call
//! [`Postgres::start_or_skip`]: without PostgreSQL it returns `None` with
//! the reason printed, except under CI (the `CI` environment variable
//! set), where the test fails.
//!
//! ```no_run
//! use crossborder_testkit::postgres::Postgres;
//!
//! #[test]
//! #[ignore = "needs PostgreSQL"]
//! fn my_test() {
//!     let Some(server) = Postgres::start_or_skip("my_test") else { return };
//!     let url = server.create_database("ledger").unwrap();
//!     assert!(url.starts_with("postgres://postgres@127.0.0.1:"));
//! }
//! # fn main() {}
//! ```

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A running PostgreSQL server, stopped and its directory removed on drop.
#[derive(Debug)]
pub struct Postgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// The system user the server runs as, when the tests run as root.
    user: Option<&'static str>,
}

/// The user PostgreSQL's Debian package creates.
const SYSTEM_USER: &str = "postgres";

static NEXT: AtomicUsize = AtomicUsize::new(0);

impl Postgres {
    /// Starts a server, or skips: `None` (with the reason on stderr) when
    /// PostgreSQL is not installed or cannot start, unless the `CI`
    /// environment variable is set, in which case it panics with the reason.
    pub fn start_or_skip(test: &str) -> Option<Postgres> {
        match Postgres::start() {
            Ok(server) => Some(server),
            Err(reason) if std::env::var_os("CI").is_some() => {
                panic!("{test} needs PostgreSQL, and CI is set: {reason}")
            }
            Err(reason) => {
                eprintln!("skipping {test}: {reason}");
                None
            }
        }
    }

    /// Starts a server on a free port of 127.0.0.1, with its Unix socket in
    /// its own directory; trust authentication for the user `postgres`.
    pub fn start() -> Result<Postgres, String> {
        let bin = find_bin()?;
        let user = running_as_root().then_some(SYSTEM_USER);
        let dir = std::env::temp_dir().join(format!(
            "crossborder-pg-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let mut server = Postgres {
            bin,
            dir,
            port: 0,
            user,
        };
        if let Some(user) = user {
            let owner = format!("{user}:");
            let dir = server.dir.display().to_string();
            succeeded(
                Command::new("chown").args(["-R", &owner, &dir]).output(),
                "chown",
            )?;
        }
        let data = server.data().display().to_string();
        server.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        )?;
        // A port can be taken between the check and the start: try a few.
        let mut last = String::new();
        for _ in 0..5 {
            server.port = free_port()?;
            let options = format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
                server.port,
                server.dir.display()
            );
            let log = server.dir.join("server.log").display().to_string();
            match server.run(
                "pg_ctl",
                &[
                    "-D", &data, "-o", &options, "-l", &log, "-w", "-t", "60", "start",
                ],
            ) {
                Ok(_) => return Ok(server),
                Err(error) => {
                    let log =
                        std::fs::read_to_string(server.dir.join("server.log")).unwrap_or_default();
                    last = format!("{error}\n{log}");
                }
            }
        }
        Err(last)
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of database `name` (which [`create_database`](Postgres::create_database) makes).
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates database `name` and returns its URL.
    pub fn create_database(&self, name: &str) -> Result<String, String> {
        let port = self.port.to_string();
        self.run(
            "createdb",
            &["-h", "127.0.0.1", "-p", &port, "-U", "postgres", name],
        )?;
        Ok(self.url(name))
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Runs one of the server's programs, as the server's user.
    fn run(&self, program: &str, args: &[&str]) -> Result<Output, String> {
        let path = self.bin.join(program);
        let mut command = match self.user {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(&path);
                command
            }
            None => Command::new(&path),
        };
        // The server must not inherit a directory it cannot read.
        command.args(args).current_dir(&self.dir);
        succeeded(command.output(), program)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.data().display().to_string();
        if let Err(error) = self.run("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]) {
            eprintln!("stopping the test PostgreSQL server: {error}");
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The newest `/usr/lib/postgresql/<version>/bin` with `initdb` and `pg_ctl`.
fn find_bin() -> Result<PathBuf, String> {
    let root = Path::new("/usr/lib/postgresql");
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .map_err(|e| {
            format!(
                "PostgreSQL is not installed ({}: {e}); apt-get install postgresql",
                root.display()
            )
        })?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version: u32 = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("pg_ctl").is_file()).then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin).ok_or_else(|| {
        format!(
            "no {}/<version>/bin with initdb and pg_ctl; apt-get install postgresql",
            root.display()
        )
    })
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            == Some("0")
    })
}

fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| format!("finding a free port: {e}"))
}

fn succeeded(output: std::io::Result<Output>, program: &str) -> Result<Output, String> {
    let output = output.map_err(|e| format!("running {program}: {e}"))?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(format!(
            "{program} failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}
