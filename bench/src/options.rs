//! What a run measures and how long (`--quick`, `--duration`, `--only`).

use std::time::Duration;

pub(super) struct Options {
    /// Measured window of each round.
    pub duration: Duration,
    pub quick: bool,
    /// Measure release builds (re-executing as one).
    pub release: bool,
    /// The groups of figures to measure; empty measures every figure.
    pub only: Vec<Group>,
    /// Payouts in flight at once in the dispatch figures (`ledger.rs`).
    pub ledger_concurrency: usize,
}

/// A group of figures measured together (`--only`), for working on one
/// figure without waiting for the others; the summary then holds only
/// that group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Group {
    /// `sandbox_vs_bare`, `sandbox_vs_bare_16`, `sandbox_p50_ms`, `sandbox_p99_ms`.
    Bare,
    /// `sdk_vs_raw`, `sdk_vs_raw_8`.
    Sdk,
    /// `sandbox_vs_prism_16`, `sandbox_vs_prism_64`.
    Prism,
    /// `sandbox_bytes_per_collection`.
    Memory,
    /// `payout_validate_ns`, `webhook_parse_ns`.
    Micro,
    /// `codegen_ms`.
    Codegen,
    /// `ledger_submit_vs_sqlite`, `ledger_submit_64_vs_sqlite`,
    /// `ledger_record_scaling`, `ledger_dispatch_vs_direct`,
    /// `ledger_settle_vs_direct`, `ledger_quoted_vs_direct`,
    /// `ledger_dispatch_vs_direct_pg` (`ledger.rs`).
    Ledger,
    /// `downstream_build_vs_async_openai` (`downstream.rs`); only when named,
    /// never in a full or `--quick` run: four full builds.
    Build,
}

impl Options {
    pub(super) fn wants(&self, group: Group) -> bool {
        (self.only.is_empty() && group != Group::Build) || self.only.contains(&group)
    }

    pub(super) fn warmup(&self) -> Duration {
        if self.quick {
            Duration::from_millis(300)
        } else {
            Duration::from_secs(1)
        }
    }

    /// Rounds of each side of a ratio.
    pub(super) fn rounds(&self) -> usize {
        if self.quick {
            1
        } else {
            3
        }
    }

    pub(super) fn collections(&self) -> usize {
        if self.quick {
            10_000
        } else {
            100_000
        }
    }
}
