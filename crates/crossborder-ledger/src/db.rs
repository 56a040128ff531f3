//! The database behind a ledger: SQLite's one connection or PostgreSQL's
//! pool, how it opens, and the few spots where the two dialects
//! differ.

use std::borrow::Cow;
use std::path::PathBuf;

use crate::error::LedgerError;
use crate::ledger::RECORD_COLUMNS;
use crate::sqlx;

/// The connections of the backend a URL named.
#[derive(Debug, Clone)]
pub(crate) enum Pool {
    #[cfg(feature = "sqlite")]
    Sqlite(SqliteLink),
    #[cfg(feature = "postgres")]
    Postgres(sqlx::PgPool),
}

/// SQLite's one connection, which the ledger's statements take in turn
/// (SQLite has one writer at a time anyway, and in memory each connection
/// would be a database of its own). Not a pool of one: sqlx's pool pings a
/// connection as it comes back, a round trip to SQLite's thread before the
/// next caller gets it, which cost a `submit` a fifth of its time.
#[cfg(feature = "sqlite")]
#[derive(Debug, Clone)]
pub(crate) struct SqliteLink {
    slot: std::sync::Arc<tokio::sync::Mutex<SqliteSlot>>,
    /// Submits waiting for the connection, written together
    /// ([`crate::group`]).
    queue: std::sync::Arc<crate::group::Queue>,
}

/// What [`SqliteLink`] guards: the connection (`None` once closed), and
/// whether a cancelled caller may have left a transaction open on it.
#[cfg(feature = "sqlite")]
#[derive(Debug)]
pub(crate) struct SqliteSlot {
    connection: Option<sqlx::SqliteConnection>,
    /// A [`fetch_transaction`](SqliteSlot::fetch_transaction) began and
    /// its end was not seen: its caller was dropped midway, and SQLite's
    /// thread stops a call whose caller is gone, between two statements.
    unsettled: bool,
}

#[cfg(feature = "sqlite")]
impl SqliteLink {
    pub(crate) fn new(connection: sqlx::SqliteConnection) -> Self {
        SqliteLink {
            slot: std::sync::Arc::new(tokio::sync::Mutex::new(SqliteSlot {
                connection: Some(connection),
                unsettled: false,
            })),
            queue: std::sync::Arc::default(),
        }
    }

    /// The connection, for one caller at a time.
    pub(crate) async fn lock(&self) -> tokio::sync::MutexGuard<'_, SqliteSlot> {
        self.slot.lock().await
    }

    /// The submits waiting for the connection.
    pub(crate) fn queue(&self) -> &crate::group::Queue {
        &self.queue
    }

    /// Closes the connection once its current holder lets go; later
    /// statements are `sqlx::Error::PoolClosed`.
    pub(crate) async fn close(&self) {
        if let Some(connection) = self.slot.lock().await.connection.take() {
            let _ = sqlx::Connection::close(connection).await;
        }
    }
}

#[cfg(feature = "sqlite")]
impl SqliteSlot {
    /// The connection, with nothing left open on it by a cancelled caller.
    pub(crate) async fn connection(&mut self) -> Result<&mut sqlx::SqliteConnection, sqlx::Error> {
        self.settle().await?;
        self.connection.as_mut().ok_or(sqlx::Error::PoolClosed)
    }

    /// Every row of `query`, whose text is a whole write transaction
    /// (`BEGIN IMMEDIATE; …; COMMIT`): one round trip to SQLite's thread,
    /// where a transaction of one statement takes three. All of it takes
    /// effect or none: a failed statement's transaction is rolled back
    /// here, a cancelled caller's by the next caller.
    pub(crate) async fn fetch_transaction<'q, O>(
        &mut self,
        query: sqlx::query::QueryAs<'q, sqlx::Sqlite, O, sqlx::sqlite::SqliteArguments<'q>>,
    ) -> Result<Vec<O>, sqlx::Error>
    where
        O: Send + Unpin + for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>,
    {
        self.settle().await?;
        let connection = self.connection.as_mut().ok_or(sqlx::Error::PoolClosed)?;
        self.unsettled = true;
        let rows = query.fetch_all(connection).await;
        if rows.is_ok() {
            self.unsettled = false;
        } else {
            // The statement's own error is the one to report.
            let _ = self.settle().await;
        }
        rows
    }

    /// Rolls back what an unfinished [`fetch_transaction`] may have left
    /// open. SQLite refuses the `ROLLBACK` (a database error) when there is
    /// nothing to roll back: the call ended before `BEGIN` or after `COMMIT`,
    /// or SQLite rolled back itself.
    ///
    /// [`fetch_transaction`]: SqliteSlot::fetch_transaction
    async fn settle(&mut self) -> Result<(), sqlx::Error> {
        if let (true, Some(connection)) = (self.unsettled, self.connection.as_mut()) {
            match sqlx::query("ROLLBACK").execute(connection).await {
                Ok(_) | Err(sqlx::Error::Database(_)) => self.unsettled = false,
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }
}

/// Runs `$body` with `$p` bound to the backend's own executor (SQLite's
/// connection, held for the body; PostgreSQL's pool), so one piece of code
/// is compiled for each backend. A closed SQLite ledger is
/// `sqlx::Error::PoolClosed`, as a closed pool is. The body runs
/// statements only: a call to another of the ledger's methods inside it
/// would wait for the connection the body holds.
macro_rules! with_pool {
    ($pool:expr, |$p:ident| $body:expr) => {
        match $pool {
            #[cfg(feature = "sqlite")]
            $crate::db::Pool::Sqlite(link) => {
                #[allow(unused_imports)]
                // `begin_with` on the connection, where the body opens a transaction.
                use sqlx::Connection as _;
                let mut slot = link.lock().await;
                let $p = slot.connection().await?;
                $body
            }
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
                use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
                let database = redacted(url);
                if let Some(existing) = path.as_deref().filter(|p| p.metadata().is_ok_and(|m| m.len() > 0)) {
                    // Read only, before anything (even the journal mode) is
                    // set: a file that is not a ledger is left as it was.
                    let options = SqliteConnectOptions::new().filename(existing).read_only(true);
                    let mut connection = sqlx::ConnectOptions::connect(&options)
                        .await
                        .map_err(|e| cannot_open(&database, &e))?;
                    let tables: Vec<String> = sqlx::query_scalar(SQLITE_TABLES)
                        .fetch_all(&mut connection)
                        .await
                        .map_err(|e| cannot_open(&database, &e))?;
                    let _ = sqlx::Connection::close(connection).await;
                    refuse_foreign(&database, tables)?;
                }
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
                let mut connection = sqlx::ConnectOptions::connect(&options)
                    .await
                    .map_err(|e| cannot_open(&database, &e))?;
                if let Err(error) = crate::migrate::sqlite(&mut connection, &database).await {
                    let _ = sqlx::Connection::close(connection).await;
                    return Err(error);
                }
                let link = SqliteLink::new(connection);
                Ok((Pool::Sqlite(link), path))
            }
            #[cfg(feature = "postgres")]
            Target::Postgres => {
                use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
                use std::str::FromStr;
                let database = redacted(url);
                let options = PgConnectOptions::from_str(url).map_err(|e| unsupported(&reason(&e)))?;
                // One connection first, so the server's own reason (refused,
                // not PostgreSQL, a wrong password) is what is reported, within
                // CONNECT_TIMEOUT, rather than the pool's "timed out".
                let first = tokio::time::timeout(
                    CONNECT_TIMEOUT,
                    sqlx::ConnectOptions::connect(&options),
                )
                .await
                .map_err(|_| LedgerError::Open {
                    database: database.clone(),
                    reason: format!("no answer within {} s", CONNECT_TIMEOUT.as_secs()),
                })?
                .map_err(|e| cannot_open(&database, &e))?;
                let _ = sqlx::Connection::close(first).await;
                let pool = PgPoolOptions::new()
                    .max_connections(8)
                    .acquire_timeout(CONNECT_TIMEOUT)
                    .connect_with(options)
                    .await
                    .map_err(|e| cannot_open(&database, &e))?;
                let mut connection = pool.acquire().await.map_err(|e| cannot_open(&database, &e))?;
                if let Err(error) = crate::migrate::postgres(&mut connection, &database).await {
                    connection.close_on_drop();
                    return Err(error);
                }
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

    /// The statement that makes writers of one batch (its key, `$1`) take
    /// turns inside their transactions: PostgreSQL's transaction-scoped
    /// advisory lock. None on SQLite, whose `BEGIN IMMEDIATE` does it.
    pub(crate) fn batch_lock(&self) -> Option<&'static str> {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(_) => None,
            #[cfg(feature = "postgres")]
            Pool::Postgres(_) => Some("SELECT pg_advisory_xact_lock(hashtext($1))"),
        }
    }

    /// `insert` (an `INSERT INTO payouts … ON CONFLICT DO NOTHING`) returning
    /// the new payout's record, with `event` (an `INSERT … SELECT` of its
    /// first event) run in the same call only when the payout was
    /// inserted: SQLite runs the two statements one after the other
    /// (`changes()` tells whether the first inserted), PostgreSQL as one
    /// statement with the insert in a `WITH`.
    pub(crate) fn insert_with_first_event(&self, insert: &str, event: &str) -> String {
        match self {
            #[cfg(feature = "sqlite")]
            Pool::Sqlite(_) => {
                let columns = RECORD_COLUMNS.replace("p.", "");
                self.sql(&format!("{insert} RETURNING {columns}; {event} WHERE changes() = 1"))
                    .into_owned()
            }
            #[cfg(feature = "postgres")]
            Pool::Postgres(_) => format!(
                "WITH p AS ({insert} RETURNING *), e AS ({event} FROM p) SELECT {RECORD_COLUMNS} FROM p"
            ),
        }
    }

    /// The condition, on a row of `payouts`, that its stored request
    /// carries a `rateKey` (its wire JSON's key): with the currencies, which
    /// `recorded` payouts can be sent as they are, and which the dispatcher
    /// quotes first ([`PayoutRequest::needs_quote`]).
    ///
    /// [`PayoutRequest::needs_quote`]: crossborder::types::PayoutRequest::needs_quote
    pub(crate) fn rate_key_given(&self) -> &'static str {
        match self {
            #[cfg(feature = "sqlite")]
            // Unreadable text is taken for no key (the dispatcher reports it).
            Pool::Sqlite(_) => {
                "CASE WHEN json_valid(request) THEN json_extract(request, '$.rateKey') END IS NOT NULL"
            }
            #[cfg(feature = "postgres")]
            Pool::Postgres(_) => "(request::jsonb ->> 'rateKey') IS NOT NULL",
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

/// How long opening a PostgreSQL ledger, or waiting for a connection of
/// its pool, may take before it is reported.
#[cfg(feature = "postgres")]
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The tables of a SQLite database.
#[cfg(feature = "sqlite")]
const SQLITE_TABLES: &str =
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name";

/// The tables of a PostgreSQL database's current schema.
#[cfg(feature = "postgres")]
pub(crate) const POSTGRES_TABLES: &str = "SELECT table_name::text FROM information_schema.tables \
     WHERE table_schema = current_schema() ORDER BY table_name";

/// Refuses a database that holds tables but no ledger: a ledger has its
/// `payouts` table; one with none but the migrations' own table is a
/// ledger whose first migration did not finish.
pub(crate) fn refuse_foreign(database: &str, tables: Vec<String>) -> Result<(), LedgerError> {
    let ledger = tables.iter().any(|t| t == "payouts");
    if ledger || tables.iter().all(|t| t == "_sqlx_migrations") {
        return Ok(());
    }
    Err(LedgerError::NotALedger {
        database: database.to_owned(),
        tables,
    })
}

/// The database could not be opened: why, in a few words, naming it.
fn cannot_open(database: &str, error: &sqlx::Error) -> LedgerError {
    LedgerError::Open {
        database: database.to_owned(),
        reason: reason(error),
    }
}

/// What went wrong reaching or reading a database, in a few words.
pub(crate) fn reason(error: &sqlx::Error) -> String {
    use std::io::ErrorKind;
    match error {
        sqlx::Error::Io(io) => match io.kind() {
            ErrorKind::ConnectionRefused => {
                "connection refused (is the database server running, on that host and port?)"
                    .to_owned()
            }
            ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset => {
                "the server there does not answer as PostgreSQL does (is it the right port?)"
                    .to_owned()
            }
            _ => io.to_string(),
        },
        sqlx::Error::Protocol(_) => {
            "the server there does not answer as PostgreSQL does (is it the right port?)".to_owned()
        }
        sqlx::Error::PoolTimedOut => "no connection within the pool's timeout".to_owned(),
        sqlx::Error::Database(db) => {
            let message = db.message();
            match db.code().as_deref() {
                // SQLITE_NOTADB, SQLITE_CORRUPT.
                Some("26") | Some("11") => {
                    format!("not a SQLite database, or a damaged one ({message})")
                }
                _ => message.to_owned(),
            }
        }
        other => other.to_string(),
    }
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
