//! The SQLite dispatcher's lock: an OS file lock next to the database,
//! released by the kernel the moment its process ends.

use std::fs::{File, OpenOptions};
use std::path::PathBuf;

use crate::error::LedgerError;

/// The lock file next to a SQLite database.
pub(super) fn lock_path(database: &std::path::Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push("-dispatcher.lock");
    PathBuf::from(name)
}

/// Takes the SQLite database's dispatcher lock, or says who holds it.
pub(super) fn take_lock(path: &std::path::Path) -> Result<File, LedgerError> {
    let io = |source| LedgerError::Io {
        path: path.to_owned(),
        source,
    };
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io)?;
    match fs4::FileExt::try_lock(&file) {
        Ok(()) => Ok(file),
        Err(fs4::TryLockError::WouldBlock) => Err(LedgerError::DispatcherBusy {
            path: path.to_owned(),
        }),
        Err(fs4::TryLockError::Error(source)) => Err(io(source)),
    }
}
