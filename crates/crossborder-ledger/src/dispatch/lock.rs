//! The SQLite dispatcher's lock: SQLite's own exclusive lock on a small
//! database next to the ledger's, held by a connection of its own while
//! the dispatcher lives. It is a POSIX lock, as SQLite's every lock: the
//! kernel releases it the moment its process ends (even by SIGKILL), and
//! it holds across processes and containers sharing the file system.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::db::reason;
use crate::error::LedgerError;
use crate::sqlx::{self, Executor as _};

/// How long a new dispatcher waits for the lock before it is refused: a
/// dispatcher just dropped lets go of it on its connection's thread, a
/// moment later.
const LOCK_WAIT: Duration = Duration::from_secs(1);

/// The held lock: its connection, in an open exclusive transaction.
#[derive(Debug)]
pub(super) struct Lock {
    _connection: sqlx::SqliteConnection,
}

/// The lock database next to a SQLite database.
pub(super) fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push("-dispatcher.lock");
    PathBuf::from(name)
}

/// Takes the SQLite database's dispatcher lock, or says who holds it.
pub(super) async fn take_lock(path: &Path) -> Result<Lock, LedgerError> {
    use sqlx::sqlite::SqliteConnectOptions;
    let failed = |error: &sqlx::Error| LedgerError::Open {
        database: path.display().to_string(),
        reason: reason(error),
    };
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .busy_timeout(LOCK_WAIT);
    let mut connection = sqlx::ConnectOptions::connect(&options)
        .await
        .map_err(|e| failed(&e))?;
    match connection.execute("BEGIN EXCLUSIVE").await {
        Ok(_) => Ok(Lock {
            _connection: connection,
        }),
        // SQLITE_BUSY: another connection holds it.
        Err(sqlx::Error::Database(error)) if error.code().as_deref() == Some("5") => {
            Err(LedgerError::DispatcherBusy {
                path: path.to_owned(),
            })
        }
        Err(error) => Err(failed(&error)),
    }
}
