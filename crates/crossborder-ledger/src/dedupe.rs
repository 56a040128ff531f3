//! [`LedgerDedupe`]: the webhook receiver's memory of confirmed changes, in
//! the ledger's database, shared by every receiver on it.

use crossborder::webhook::{DedupeError, DedupeStore};

use crate::db::with_pool;
use crate::ledger::Ledger;
use crate::sqlx;
use crate::time::now_ms;

/// A [`DedupeStore`] on the ledger's database: one row per confirmed
/// status change, under a unique key (`INSERT ... ON CONFLICT DO
/// NOTHING`), so of several receivers that confirm the same change at once
/// (behind a load balancer, or a delivery sent to each) exactly one hands
/// it to its handler. Made by [`Ledger::dedupe_store`].
///
/// ```no_run
/// # async fn run(client: crossborder::Client) -> Result<(), crossborder_ledger::LedgerError> {
/// use crossborder::webhook::{axum, Delivery, Receiver};
///
/// let ledger = crossborder_ledger::Ledger::open("postgres://app@localhost/payments").await?;
/// let route = Receiver::new(client)
///     .dedupe(ledger.dedupe_store())
///     .route(|delivery: Delivery| async move { println!("{:?}", delivery.verdict) });
/// let app: axum::Router = axum::Router::new().route("/hooks/crossborder", route);
/// # let _ = app; Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct LedgerDedupe {
    ledger: Ledger,
}

impl Ledger {
    /// The webhook receivers' [`DedupeStore`] on this database.
    pub fn dedupe_store(&self) -> LedgerDedupe {
        LedgerDedupe {
            ledger: self.clone(),
        }
    }
}

impl DedupeStore for LedgerDedupe {
    async fn first_delivery(&self, key: &str) -> Result<bool, DedupeError> {
        let pool = &self.ledger.pool;
        let text = pool.sql(
            "INSERT INTO webhook_deliveries (dedupe_key, at) VALUES ($1, $2) ON CONFLICT (dedupe_key) DO NOTHING",
        );
        let inserted = with_pool!(pool, |p| {
            sqlx::query(&text)
                .bind(key)
                .bind(now_ms())
                .execute(p)
                .await?
                .rows_affected()
        });
        Ok(inserted == 1)
    }

    async fn forget(&self, key: &str) {
        let pool = &self.ledger.pool;
        let text = pool.sql("DELETE FROM webhook_deliveries WHERE dedupe_key = $1");
        let result: Result<(), sqlx::Error> = async {
            with_pool!(pool, |p| sqlx::query(&text)
                .bind(key)
                .execute(p)
                .await
                .map(drop)?);
            Ok(())
        }
        .await;
        if let Err(error) = result {
            tracing::error!(%error, "could not forget a webhook delivery; a repeat of it will be dropped");
        }
    }
}
