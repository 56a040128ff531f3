//! sqlx as its facade crate names it, from the crates behind the facade:
//! the facade turns on sqlx-core's `migrate` and `offline` features for
//! every build (a SHA-2 and a CRC stack, serde impls), which the ledger
//! does not use (its migrations are applied by `migrate.rs`).

pub(crate) use sqlx_core::connection::{ConnectOptions, Connection};
pub(crate) use sqlx_core::database::Database;
pub(crate) use sqlx_core::error::Error;
pub(crate) use sqlx_core::executor::Executor;
pub(crate) use sqlx_core::from_row::FromRow;
pub(crate) use sqlx_core::query::query;
pub(crate) use sqlx_core::query_as::query_as;
pub(crate) use sqlx_core::query_builder::QueryBuilder;
pub(crate) use sqlx_core::query_scalar::query_scalar;
pub(crate) use sqlx_core::row::Row;
pub(crate) use sqlx_core::transaction::Transaction;

#[cfg(feature = "postgres")]
pub(crate) use sqlx_postgres::{self as postgres, PgConnection, PgPool, Postgres};
#[cfg(feature = "sqlite")]
pub(crate) use sqlx_sqlite::{self as sqlite, Sqlite, SqliteConnection};

/// The query types, as the facade's `sqlx::query` module holds them.
#[cfg(feature = "sqlite")]
pub(crate) mod query {
    pub(crate) use sqlx_core::query_as::QueryAs;
}
