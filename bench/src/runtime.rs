//! How the bench process runs: as a release build of itself, and with
//! interrupting signals caught so servers are stopped before it exits.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};

use crate::process::{cargo_build, Profile};

/// Replaces this (unoptimised) process with a release build of itself run
/// with the same arguments.
pub(super) fn reexec_release(root: &Path) -> Result<()> {
    let exe = cargo_build(root, env!("CARGO_PKG_NAME"), Profile::Release)?;
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
pub(super) struct Signals {
    int: tokio::signal::unix::Signal,
    term: tokio::signal::unix::Signal,
    hup: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl Signals {
    pub(super) fn install() -> Result<Self> {
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
    pub(super) async fn recv(&mut self) -> &'static str {
        tokio::select! {
            _ = self.int.recv() => "SIGINT",
            _ = self.term.recv() => "SIGTERM",
            _ = self.hup.recv() => "SIGHUP",
        }
    }
}

/// Ctrl-C, caught once installed.
#[cfg(not(unix))]
pub(super) struct Signals;

#[cfg(not(unix))]
impl Signals {
    pub(super) fn install() -> Result<Self> {
        Ok(Self)
    }

    pub(super) async fn recv(&mut self) -> &'static str {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "Ctrl-C",
            Err(_) => std::future::pending().await,
        }
    }
}
