//! The database behind a ledger: one pool per backend, the embedded
//! migrations, and the few spots where the two dialects differ.

use std::borrow::Cow;
use std::path::PathBuf;

use sqlx::migrate::{Migrate, Migrator};

use crate::error::LedgerError;

/// A pool of the backend a URL named.
#[derive(Debug, Clone)]
pub(crate) enum Pool {
    #[cfg(feature = "sqlite")]
    Sqlite(sqlx::SqlitePool),
    #[cfg(feature = "postgres")]
    Postgres(sqlx::PgPool),
}

/// Runs `$body` with `$pool` bound to the backend's own pool, so one piece
/// of code is compiled for each backend.
macro_rules! with_pool {
    ($pool:expr, |$p:ident| $body:expr) => {
        match $pool {
            #[cfg(feature = "sqlite")]
            $crate::db::Pool::Sqlite($p) => $body,
            #[cfg(feature = "postgres")]
            $crate::db::Pool::Postgres($p) => $body,
        }
    };
}
pub(crate) use with_pool;

/// Every row of `$text` (in PostgreSQL's dialect, one optional text
/// parameter `$param`), each turned into a value by `$convert`:
/// `Result<Vec<_>, LedgerError>`.
macro_rules! fetch_all {
    ($pool:expr, $text:expr, $param:expr, $convert:expr) => {{
        let pool = $pool;
        let owned: &str = $text;
        let text = pool.sql(owned);
        let param: Option<&str> = $param;
        let rows: Vec<_> = $crate::db::with_pool!(pool, |p| {
            let query = sqlx::query_as(&text);
            match param {
                Some(value) => query.bind(value).fetch_all(p).await?,
                None => query.fetch_all(p).await?,
            }
        });
        rows.into_iter()
            .map($convert)
            .collect::<Result<Vec<_>, LedgerError>>()
    }};
}
pub(crate) use fetch_all;

#[cfg(feature = "sqlite")]
static SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
#[cfg(feature = "postgres")]
static POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// Where a URL points.
pub(crate) enum Target {
    /// A SQLite file (`None`: in memory).
    #[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
    Sqlite(Option<PathBuf>),
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    Postgres,
}

/// `sqlite://path`, `sqlite:path`, a bare path (SQLite), `postgres://...`
/// or `postgresql://...`.
pub(crate) fn target(url: &str) -> Target {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Target::Postgres;
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = path.split('?').next().unwrap_or(path);
    if path.is_empty() || path == ":memory:" {
        Target::Sqlite(None)
    } else {
        Target::Sqlite(Some(PathBuf::from(path)))
    }
}

/// The URL with any password replaced, for messages.
pub(crate) fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme + 3],
                    &credentials[..colon],
                    &url[at..]
                ),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

impl Pool {
    /// Connects and brings the schema up to date, refusing one newer than
    /// this code.
    pub(crate) async fn open(url: &str) -> Result<(Pool, Option<PathBuf>), LedgerError> {
        let unsupported = |reason: &str| LedgerError::Url {
            url: redacted(url),
            reason: reason.to_owned(),
        };
        match target(url) {
            #[cfg(feature = "sqlite")]
            Target::Sqlite(path) => {
                use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
                let options = match &path {
                    Some(path) => SqliteConnectOptions::new().filename(path),
                    None => SqliteConnectOptions::new().in_memory(true),
                }
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                // A payout recorded is on disk when `submit` returns.
                .synchronous(SqliteSynchronous::Full)
                .foreign_keys(true)
                .busy_timeout(std::time::Duration::from_secs(30));
                // One connection: SQLite has one writer at a time anyway, and
                // in memory every connection would be its own database.
                let pool = SqlitePoolOptions::new()
                    .max_connections(1)
                    .connect_with(options)
                    .await?;
                migrate(&pool, &SQLITE).await?;
                Ok((Pool::Sqlite(pool), path))
            }
            #[cfg(feature = "postgres")]
            Target::Postgres => {
                let pool = sqlx::postgres::PgPoolOptions::new()
                    .max_connections(8)
                    .connect(url)
                    .await?;
                migrate(&pool, &POSTGRES).await?;
                Ok((Pool::Postgres(pool), None))
            }
            #[allow(unreachable_patterns)]
            _ => Err(unsupported(
                "this build of crossborder-ledger lacks the feature for that database (`sqlite`, `postgres`)",
            )),
        }
    }

    /// `text` in this backend's dialect: the statements are written for
    /// PostgreSQL; SQLite drops the casts (its columns hold the decimal
    /// text as it is) and the row locks (one dispatcher per file).
    pub(crate) fn sql<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(_) => Cow::Owned(
                text.replace("::numeric", "")
                    .replace("::text", "")
                    .replace(" FOR UPDATE SKIP LOCKED", ""),
            ),
            #[cfg(feature = "postgres")]
            Pool::Postgres(_) => Cow::Borrowed(text),
        }
    }

    /// The statement that opens a write transaction. SQLite's is
    /// `BEGIN IMMEDIATE`: it takes the write lock at once, waiting for it
    /// (the busy timeout), where a plain `BEGIN` that reads first may fail
    /// with "database is locked" when another writer commits in between.
    pub(crate) fn begin(&self) -> &'static str {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(_) => "BEGIN IMMEDIATE",
            #[cfg(feature = "postgres")]
            Pool::Postgres(_) => "BEGIN",
        }
    }

    /// Whether this is SQLite (one dispatcher per file).
    pub(crate) fn is_sqlite(&self) -> bool {
        #[allow(unreachable_patterns)]
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(_) => true,
            _ => false,
        }
    }
}

/// Applies the embedded migrations, after refusing a database that has
/// migrations this code does not know (written by a newer version).
async fn migrate<DB>(pool: &sqlx::Pool<DB>, migrator: &Migrator) -> Result<(), LedgerError>
where
    DB: sqlx::Database,
    DB::Connection: Migrate,
    for<'a> &'a mut DB::Connection: sqlx::Executor<'a, Database = DB>,
    for<'a> &'a sqlx::Pool<DB>: sqlx::Acquire<'a, Database = DB>,
{
    let supported = migrator.iter().map(|m| m.version).max().unwrap_or(0);
    let mut connection = pool.acquire().await?;
    connection.ensure_migrations_table().await?;
    let found = connection
        .list_applied_migrations()
        .await?
        .iter()
        .map(|m| m.version)
        .max()
        .unwrap_or(0);
    drop(connection);
    if found > supported {
        return Err(LedgerError::SchemaTooNew { found, supported });
    }
    migrator.run(pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_backend_and_a_bare_path_is_sqlite() {
        for (url, file) in [
            ("sqlite://payouts.db", Some("payouts.db")),
            ("sqlite:payouts.db?mode=rwc", Some("payouts.db")),
            ("/var/lib/app/payouts.db", Some("/var/lib/app/payouts.db")),
            ("sqlite::memory:", None),
        ] {
            match target(url) {
                Target::Sqlite(path) => {
                    assert_eq!(path.as_deref(), file.map(std::path::Path::new), "{url}")
                }
                Target::Postgres => panic!("{url} is SQLite"),
            }
        }
        assert!(matches!(
            target("postgres://u@localhost/db"),
            Target::Postgres
        ));
        assert!(matches!(
            target("postgresql://u@localhost/db"),
            Target::Postgres
        ));
    }

    #[test]
    fn a_password_never_reaches_a_message() {
        assert_eq!(
            redacted("postgres://app:s3cret@db:5432/ledger"),
            "postgres://app:***@db:5432/ledger"
        );
        assert_eq!(
            redacted("postgres://app@db/ledger"),
            "postgres://app@db/ledger"
        );
        assert_eq!(redacted("payouts.db"), "payouts.db");
    }
}
