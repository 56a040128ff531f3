//! Collections the ledger waits for: recorded before they are created,
//! every confirmed status change kept, the open ones reconciled on start.

use std::str::FromStr;
use std::time::Duration;

use crossborder::types::{CollectionRequest, Transaction, TransactionStatus};
use crossborder::webhook::Reconciler;
use crossborder::{Client, Currency, Decimal, WaitOptions};

use crate::db::{fetch_all, with_pool};
use crate::error::LedgerError;
use crate::ledger::Ledger;
use crate::record::{CollectionRecord, ExpectedCollection};
use crate::sqlx;
use crate::time::now_ms;

const COLUMNS: &str = "payment_reference, amount::text, from_currency, to_currency, status, \
     paid_amount::text, transaction_id, open";

#[rustfmt::skip] // One line: a row is read as one tuple.
type Row = (String, String, String, String, String, Option<String>, Option<String>, i64);

/// The status of a collection recorded but not (yet) created.
const EXPECTED: &str = "EXPECTED";

impl Ledger {
    /// Records the collection (no status yet), then creates it with
    /// `client` and records it as the service created it; returns the
    /// record with the memo and the payment instructions to give the
    /// payer. The payment reference is the collection's idempotency key at
    /// the API: calling this again (after a crash between the two steps,
    /// say) creates nothing more. A request that breaks the API's rules is
    /// refused with [`LedgerError::Invalid`] and nothing is recorded.
    pub async fn expect_collection(
        &self,
        client: &Client,
        request: &CollectionRequest,
    ) -> Result<ExpectedCollection, LedgerError> {
        request.validate().map_err(LedgerError::Invalid)?;
        let now = now_ms();
        let insert = self.pool.sql(
            "INSERT INTO collections (payment_reference, amount, from_currency, to_currency, status, open, created_at, updated_at) \
             VALUES ($1, $2::numeric, $3, $4, $5, 1, $6, $6) ON CONFLICT (payment_reference) DO NOTHING",
        );
        let event = self.pool.sql(EVENT);
        with_pool!(&self.pool, |p| {
            let mut tx = p.begin_with(self.pool.begin()).await?;
            let inserted = sqlx::query(&insert)
                .bind(&request.payment_reference)
                .bind(request.amount.to_string())
                .bind(request.from_currency.as_str())
                .bind(request.to_currency.as_str())
                .bind(EXPECTED)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if inserted == 1 {
                sqlx::query(&event)
                    .bind(&request.payment_reference)
                    .bind(now)
                    .bind(EXPECTED)
                    .bind(None::<String>)
                    .bind("recorded")
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        let created = client.collections().create(request).await?;
        self.record_change(&created, "created").await?;
        let record = self
            .collection(&request.payment_reference)
            .await?
            .ok_or_else(|| LedgerError::Corrupt {
                what: format!("collection {}", request.payment_reference),
                detail: "vanished after it was recorded".into(),
            })?;
        Ok(ExpectedCollection {
            record,
            pay_reference: created.pay_reference,
            payment_instructions: created.payment_instructions,
        })
    }

    /// Records a status change the service confirmed (the transaction of a
    /// webhook receiver's `Verdict::Confirmed`, or a read): the collection's
    /// status and paid amount, and an event when either changed. Returns
    /// the collection as it now stands, or `None` for a reference the
    /// ledger does not expect.
    pub async fn record_collection(
        &self,
        confirmed: &Transaction,
    ) -> Result<Option<CollectionRecord>, LedgerError> {
        self.record_change(confirmed, "webhook").await?;
        self.collection(&confirmed.payment_reference).await
    }

    /// Every collection, oldest first.
    pub async fn collections(&self) -> Result<Vec<CollectionRecord>, LedgerError> {
        fetch_all!(&self.pool, &select("ORDER BY seq"), None, collection)
    }

    /// The collection recorded under `payment_reference`, if any.
    pub async fn collection(
        &self,
        payment_reference: &str,
    ) -> Result<Option<CollectionRecord>, LedgerError> {
        let text = select("WHERE payment_reference = $1");
        Ok(fetch_all!(&self.pool, &text, Some(payment_reference), collection)?.pop())
    }

    /// Reconciles every open collection (created, not in a final status)
    /// with the SDK's [`Reconciler`]: each is read at once, then polled
    /// with `polling` until it reaches a final status or `polling.timeout`
    /// passes, and every change found is recorded. Run it on start: an
    /// event lost while no receiver ran is recovered. Returns the open
    /// collections as they stand afterwards.
    pub async fn reconcile_collections(
        &self,
        client: &Client,
        polling: WaitOptions,
    ) -> Result<Vec<CollectionRecord>, LedgerError> {
        let text = select("WHERE open = 1 AND transaction_id IS NOT NULL ORDER BY seq");
        let open = fetch_all!(&self.pool, &text, None, collection)?;
        let mut reconciler = Reconciler::new(client.clone())
            .grace(Duration::ZERO)
            .polling(polling);
        for collection in &open {
            reconciler.watch(collection.payment_reference.clone());
        }
        while let Some(done) = reconciler.next().await {
            match done.result {
                Ok(transaction) => self.record_change(&transaction, "reconciled").await?,
                Err(crossborder::Error::WaitTimeout { last }) => {
                    self.record_change(&last, "reconciled").await?
                }
                Err(error) => {
                    tracing::warn!(reference = %done.reference, %error, "collection not reconciled")
                }
            }
        }
        let mut now = Vec::with_capacity(open.len());
        for collection in open {
            if let Some(read) = self.collection(&collection.payment_reference).await? {
                now.push(read);
            }
        }
        Ok(now)
    }

    /// Records `read` when it changes the collection's status or paid
    /// amount.
    async fn record_change(&self, read: &Transaction, source: &str) -> Result<(), LedgerError> {
        let Some(current) = self.collection(&read.payment_reference).await? else {
            return Ok(());
        };
        let status = read.status.as_str();
        let unchanged = current.status.as_ref() == Some(&read.status)
            && current.paid_amount == read.paid_amount
            && current.transaction_id.as_deref() == Some(read.transaction_id.as_str());
        if unchanged {
            return Ok(());
        }
        let open = i64::from(!matches!(
            read.status,
            TransactionStatus::Completed | TransactionStatus::Expired | TransactionStatus::Failed
        ));
        let paid = read.paid_amount.map(|paid| paid.to_string());
        let now = now_ms();
        let update = self.pool.sql(
            "UPDATE collections SET status = $1, paid_amount = $2::numeric, transaction_id = $3, open = $4, \
             updated_at = $5 WHERE payment_reference = $6",
        );
        let event = self.pool.sql(EVENT);
        with_pool!(&self.pool, |p| {
            let mut tx = p.begin_with(self.pool.begin()).await?;
            sqlx::query(&update)
                .bind(status)
                .bind(paid.as_deref())
                .bind(&read.transaction_id)
                .bind(open)
                .bind(now)
                .bind(&read.payment_reference)
                .execute(&mut *tx)
                .await?;
            sqlx::query(&event)
                .bind(&read.payment_reference)
                .bind(now)
                .bind(status)
                .bind(paid.as_deref())
                .bind(source)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }
}

/// The query of the collections `tail` picks.
fn select(tail: &str) -> String {
    format!("SELECT {COLUMNS} FROM collections {tail}")
}

const EVENT: &str =
    "INSERT INTO collection_events (payment_reference, at, status, paid_amount, source) \
     VALUES ($1, $2, $3, $4::numeric, $5)";

fn collection(row: Row) -> Result<CollectionRecord, LedgerError> {
    let (payment_reference, amount, from, to, status, paid, transaction_id, open) = row;
    let corrupt = |detail: String| LedgerError::Corrupt {
        what: format!("collection {payment_reference}"),
        detail,
    };
    let decimal =
        |text: &str| Decimal::from_str(text).map_err(|e| corrupt(format!("amount {text:?}: {e}")));
    let currency = |code: &str| Currency::from_str(code).map_err(|e| corrupt(e.to_string()));
    Ok(CollectionRecord {
        amount: decimal(&amount)?,
        from_currency: currency(&from)?,
        to_currency: currency(&to)?,
        // Open: any word reads (an unknown one as `Unknown`).
        status: (status != EXPECTED).then(|| status.parse().unwrap_or_else(|never| match never {})),
        paid_amount: paid.as_deref().map(decimal).transpose()?,
        transaction_id,
        open: open != 0,
        payment_reference,
    })
}
