//! The ledger's schema: its migrations, compiled in, and applied when a
//! ledger opens, all in one transaction.
//!
//! The bookkeeping is sqlx's own: the table `_sqlx_migrations`, its rows
//! and checksums (SHA-384 of each file) exactly as `sqlx::migrate!` writes
//! them, so a ledger migrated by either reads the same to the other. The
//! migrator itself is ours: sqlx's (its `migrate` feature) brings a
//! SHA-2 and a CRC stack into every user's build for what these few
//! statements do.

use std::time::Instant;

use crate::error::LedgerError;
use crate::sqlx;

/// One migration compiled in: what `migrations/<backend>/<version>_<description>.sql`
/// holds, with the checksum sqlx records for it.
#[derive(Debug)]
struct Migration {
    version: i64,
    description: &'static str,
    sql: &'static str,
    /// SHA-384 of `sql`, in hex (a test checks each against the file).
    checksum: &'static str,
}

impl Migration {
    fn checksum(&self) -> Vec<u8> {
        (0..self.checksum.len())
            .step_by(2)
            .filter_map(|i| u8::from_str_radix(self.checksum.get(i..i + 2)?, 16).ok())
            .collect()
    }
}

#[cfg(feature = "sqlite")]
const SQLITE: &[Migration] = &[
    Migration {
        version: 1,
        description: "ledger",
        sql: include_str!("../migrations/sqlite/0001_ledger.sql"),
        checksum: "6f82b517827dc54850783ab27fe9eaf554e04dfe770b24580b3f190a2520062ed6a79018847ba15daa3fa66bcd821429",
    },
    Migration {
        version: 2,
        description: "quotes",
        sql: include_str!("../migrations/sqlite/0002_quotes.sql"),
        checksum: "6b9eade03282f5616a57b2739e5e5a8bc14dc19e9e384ca04af80ddf7733dc8cb386202538dea5851d475badb2493169",
    },
];

#[cfg(feature = "postgres")]
const POSTGRES: &[Migration] = &[
    Migration {
        version: 1,
        description: "ledger",
        sql: include_str!("../migrations/postgres/0001_ledger.sql"),
        checksum: "d46ed176d799631167a4a82b181b6be3eb6a019ce457d2ee10d4473998e110da32e7cd200d603eb011708b983aa0219c",
    },
    Migration {
        version: 2,
        description: "quotes",
        sql: include_str!("../migrations/postgres/0002_quotes.sql"),
        checksum: "276f842f2ca3fb62d68921276fbceac8bf13d8fbd2dff24ed3555b7bc4f6d765a9f4807e13be8ae840a4cd62f0dac2b6",
    },
];

/// sqlx's table, as its SQLite migrator creates it.
#[cfg(feature = "sqlite")]
const SQLITE_TABLE: &str = "CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
)";

/// sqlx's table, as its PostgreSQL migrator creates it.
#[cfg(feature = "postgres")]
const POSTGRES_TABLE: &str = "CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMPTZ NOT NULL DEFAULT now(),
    success BOOLEAN NOT NULL,
    checksum BYTEA NOT NULL,
    execution_time BIGINT NOT NULL
)";

/// Takes the PostgreSQL advisory lock a migration holds until its
/// transaction ends (advisory locks are per database), so processes
/// opening a new database at the same instant take turns. The key is
/// `b"cbledger"` read as a big-endian `i64`.
#[cfg(feature = "postgres")]
const POSTGRES_LOCK: &str = "SELECT pg_advisory_xact_lock(7161405540204504434)";

/// What to do with the migrations a database has applied, or why not.
fn pending<'a>(
    migrations: &'a [Migration],
    applied: &[(i64, bool, Vec<u8>)],
) -> Result<Vec<&'a Migration>, LedgerError> {
    let supported = migrations.iter().map(|m| m.version).max().unwrap_or(0);
    let found = applied.iter().map(|a| a.0).max().unwrap_or(0);
    if found > supported {
        return Err(LedgerError::SchemaTooNew { found, supported });
    }
    for (version, success, checksum) in applied {
        let problem = match migrations.iter().find(|m| m.version == *version) {
            _ if !success => "was left unfinished",
            None => "is not one this crossborder-ledger knows",
            Some(known) if known.checksum() != *checksum => {
                "was applied from other SQL than this crossborder-ledger's (its checksum differs)"
            }
            Some(_) => continue,
        };
        return Err(LedgerError::Migrate {
            version: *version,
            problem: problem.to_owned(),
        });
    }
    Ok(migrations
        .iter()
        .filter(|m| !applied.iter().any(|a| a.0 == m.version))
        .collect())
}

/// Brings a ledger's schema up to date on `connection`: in one
/// transaction that holds the database's write lock (SQLite) or the
/// migration lock (PostgreSQL) from its first statement, after refusing a
/// database that is not a ledger (PostgreSQL; SQLite's was read before)
/// or that has migrations this code does not know. On an error nothing is
/// changed, and the caller closes the connection.
macro_rules! migrate_fn {
    ($name:ident, $feature:literal, $db:ty, $migrations:expr, $table:expr, $begin:expr, $tables:expr) => {
        #[cfg(feature = $feature)]
        pub(crate) async fn $name(
            connection: &mut <$db as sqlx::Database>::Connection,
            database: &str,
        ) -> Result<(), LedgerError> {
            use sqlx::Executor;
            for statement in $begin {
                connection.execute(statement).await?;
            }
            let result = async {
                if let Some(tables) = $tables {
                    let tables: Vec<String> = sqlx::query_scalar(tables)
                        .fetch_all(&mut *connection)
                        .await?;
                    crate::db::refuse_foreign(database, tables)?;
                }
                connection.execute($table).await?;
                let applied: Vec<(i64, bool, Vec<u8>)> = sqlx::query_as(
                    "SELECT version, success, checksum FROM _sqlx_migrations ORDER BY version",
                )
                .fetch_all(&mut *connection)
                .await?;
                for migration in pending($migrations, &applied)? {
                    let started = Instant::now();
                    connection.execute(migration.sql).await?;
                    let nanos = i64::try_from(started.elapsed().as_nanos()).unwrap_or(i64::MAX);
                    sqlx::query(
                        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
                         VALUES ($1, $2, TRUE, $3, $4)",
                    )
                    .bind(migration.version)
                    .bind(migration.description)
                    .bind(migration.checksum())
                    .bind(nanos)
                    .execute(&mut *connection)
                    .await?;
                }
                Ok::<(), LedgerError>(())
            }
            .await;
            match result {
                Ok(()) => {
                    connection.execute("COMMIT").await?;
                    Ok(())
                }
                Err(error) => {
                    let _ = connection.execute("ROLLBACK").await;
                    Err(error)
                }
            }
        }
    };
}
migrate_fn!(
    sqlite,
    "sqlite",
    sqlx::Sqlite,
    SQLITE,
    SQLITE_TABLE,
    ["BEGIN IMMEDIATE"],
    None::<&str>
);
migrate_fn!(
    postgres,
    "postgres",
    sqlx::Postgres,
    POSTGRES,
    POSTGRES_TABLE,
    ["BEGIN", POSTGRES_LOCK],
    Some(crate::db::POSTGRES_TABLES)
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Both: the crate's tests build with both features (its
    /// dev-dependency on itself).
    fn backends() -> [(&'static str, &'static [Migration]); 2] {
        [("sqlite", SQLITE), ("postgres", POSTGRES)]
    }

    /// The embedded lists are the migration folders, file for file, as
    /// `sqlx::migrate!` would read them (`<version>_<description>.sql`),
    /// each with the checksum sqlx records: the SHA-384 of its SQL.
    #[test]
    fn the_embedded_migrations_are_the_migration_folders_with_sqlx_checksums() {
        use sha2::{Digest, Sha384};
        for (backend, embedded) in backends() {
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(backend);
            let mut files: Vec<(i64, String, String, Vec<u8>)> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|entry| {
                    let path = entry.unwrap().path();
                    let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
                    let (version, description) = name.split_once('_').unwrap();
                    let sql = std::fs::read_to_string(&path).unwrap();
                    let checksum = Sha384::digest(sql.as_bytes()).to_vec();
                    (
                        version.parse().unwrap(),
                        description.replace('_', " "),
                        sql,
                        checksum,
                    )
                })
                .collect();
            files.sort();
            let listed: Vec<(i64, String, String, Vec<u8>)> = embedded
                .iter()
                .map(|m| {
                    (
                        m.version,
                        m.description.to_owned(),
                        m.sql.to_owned(),
                        m.checksum(),
                    )
                })
                .collect();
            assert_eq!(listed, files, "migrations/{backend}");
        }
    }

    #[test]
    fn the_postgres_lock_key_is_the_one_documented() {
        assert_eq!(
            i64::from_be_bytes(*b"cbledger").to_string(),
            "7161405540204504434"
        );
    }

    /// What a database has applied decides what runs: the rest of the
    /// list, or a refusal naming the migration and the problem.
    #[test]
    fn applied_migrations_are_checked_before_anything_runs() {
        let (_, migrations) = backends()[0];
        let first = (1, true, migrations[0].checksum());
        let versions = |ms: Vec<&Migration>| ms.iter().map(|m| m.version).collect::<Vec<_>>();
        assert_eq!(versions(pending(migrations, &[]).unwrap()), [1, 2]);
        assert_eq!(
            versions(pending(migrations, std::slice::from_ref(&first)).unwrap()),
            [2]
        );
        let refused = |applied: &[(i64, bool, Vec<u8>)]| {
            pending(migrations, applied).unwrap_err().to_string()
        };
        assert_eq!(
            refused(&[(1, false, migrations[0].checksum())]),
            "the ledger's schema cannot be brought up to date: migration 1 was left unfinished; nothing was changed"
        );
        assert_eq!(
            refused(&[(1, true, vec![0; 48])]),
            "the ledger's schema cannot be brought up to date: migration 1 was applied from other SQL than this crossborder-ledger's (its checksum differs); nothing was changed"
        );
        assert_eq!(
            refused(&[(0, true, vec![]), first]),
            "the ledger's schema cannot be brought up to date: migration 0 is not one this crossborder-ledger knows; nothing was changed"
        );
        assert_eq!(
            refused(&[(3, true, vec![])]),
            "the ledger's schema is at version 3, newer than the 2 this crossborder-ledger knows; upgrade crossborder-ledger to open it (nothing was changed)"
        );
    }
}
