//! Payouts through the durable ledger (`crossborder-ledger`):
//! `payout --body FILE --ledger ...` and `ledger list|show|resume`.
//!
//! The ledger does the work (records the batch before anything is sent,
//! sends each payout once, reads back what was left in flight); this module
//! opens it, shows its progress and its records, and says what to do next:
//! `run` records and sends (`payout --ledger`, `ledger resume`),
//! `dispatch` follows a run and says what it waits for, `records`
//! prints what the ledger holds (`ledger list|show|backup`).

mod dispatch;
mod records;
mod run;

use std::path::Path;
use std::time::SystemTime;

use crossborder_ledger::{Ledger, LedgerError};

use crate::batch;
use crate::failure::{self, Failure};

pub use self::dispatch::How;
pub use self::records::{backup, list, show};
pub use self::run::{pay, resume};

/// The ledger named by `--ledger` or `CROSSBORDER_LEDGER`, opened; a
/// SQLite file is created only by `payout --ledger` (`create`), so a
/// mistyped name in `ledger list` is an error, not a new empty ledger.
pub async fn open(ledger: Option<&str>, create: bool) -> Result<Ledger, Failure> {
    let url = ledger.ok_or_else(|| {
        Failure::usage(
            "no ledger: pass --ledger PATH_OR_URL (a SQLite file such as payouts.db, \
             or a postgres:// URL) or set CROSSBORDER_LEDGER",
        )
    })?;
    if let Some(path) = sqlite_file(url).filter(|path| !create && !path.exists()) {
        return Err(Failure::usage(format!(
            "no ledger at {}: `crossborder payout --body FILE --ledger {url}` creates it",
            path.display()
        )));
    }
    Ledger::open(url).await.map_err(|error| match error {
        // Its message names the URL already (without a password).
        LedgerError::Url { .. } => Failure::usage(error.to_string()),
        LedgerError::Open { .. } | LedgerError::NotALedger { .. } => {
            database_failure(error.to_string())
        }
        other => database_failure(format!("cannot open the ledger {}: {other}", shown(url))),
    })
}

/// A failure of the ledger's database: its own exit code.
fn database_failure(message: String) -> Failure {
    let mut failure = Failure::runtime(message);
    failure.code = failure::DATABASE;
    failure
}

/// The file of a SQLite ledger URL (a path, `sqlite://PATH`, `sqlite:PATH`).
fn sqlite_file(url: &str) -> Option<&Path> {
    if url.contains("://") && !url.starts_with("sqlite://") {
        return None;
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = path.split('?').next().unwrap_or(path);
    (!path.is_empty() && path != ":memory:").then(|| Path::new(path))
}

/// `url` as it may be printed: a PostgreSQL URL's password masked.
fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((user_info, host)) = rest.rsplit_once('@') else {
        return url.to_owned();
    };
    match user_info.split_once(':') {
        Some((user, _password)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

/// A ledger error while running: the ledger keeps everything, so the
/// command says how to go on (`wait`: the run followed accepted payouts).
fn trouble(url: &str, error: &LedgerError, wait: bool) -> Failure {
    match error {
        LedgerError::Api(error) => {
            let mut failure = Failure::of(error);
            failure.lines.push(how_to_go_on(wait));
            failure
        }
        LedgerError::Database(_)
        | LedgerError::Migrate { .. }
        | LedgerError::Io { .. }
        | LedgerError::Corrupt { .. }
        | LedgerError::Open { .. }
        | LedgerError::NotALedger { .. } => {
            let mut failure = database_failure(format!("on the ledger {}: {error}", shown(url)));
            failure.lines.push(how_to_go_on(wait));
            failure
        }
        LedgerError::Invalid(violations) => Failure::from(violations.clone()),
        LedgerError::InvalidItems(items) => {
            let mut failure = Failure::usage("invalid payout; nothing was recorded or sent");
            for (position, violations) in items {
                let prefix = batch::prefix(true, position.saturating_sub(1));
                failure.lines.extend(
                    violations
                        .iter()
                        .map(|v| format!("{prefix}  {}: {}", v.field, v.message)),
                );
            }
            failure
        }
        other => Failure::runtime(other.to_string()),
    }
}

const HOW_TO_GO_ON: &str =
    "  nothing is lost: run the same command again (or `crossborder ledger resume`) to finish";

/// What to run next after a stop: `ledger resume --wait` after a run that
/// followed accepted payouts, which a plain resume would not follow.
fn how_to_go_on(wait: bool) -> String {
    if wait {
        "  nothing is lost: run the same command again (or `crossborder ledger resume --wait`) \
         to finish"
            .to_owned()
    } else {
        HOW_TO_GO_ON.to_owned()
    }
}

/// A ledger time as the ledger's own JSON writes it (a quote's
/// `validUntil`), so one `ledger show` never spells a time two ways.
fn instant(at: SystemTime) -> String {
    crossborder_ledger::rfc3339_text(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ledger times keep three digits, as the ledger's JSON writes a
    /// quote's `validUntil` (`time`'s RFC 3339 would drop the last zero).
    #[test]
    fn ledger_times_are_written_as_the_ledgers_json_writes_them() {
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_795_816_716_360);
        assert_eq!(instant(at), "2026-11-27T21:58:36.360Z");
    }

    #[test]
    fn a_postgres_password_is_never_printed() {
        assert_eq!(
            shown("postgres://app:s3cret@db.internal:5432/payouts"),
            "postgres://app:***@db.internal:5432/payouts"
        );
        assert_eq!(
            shown("postgres://app@db/payouts"),
            "postgres://app@db/payouts"
        );
        assert_eq!(shown("payouts.db"), "payouts.db");
    }
}
