//! Testing your own code against the sandbox with `crossborder-testkit`
//! (a dev-dependency): each `#[tokio::test]` starts its own in-process
//! sandbox on a free loopback port and a fixed clock, gets a client for it
//! in one call, opens and pays a collection as a payer would, waits for a
//! status with a bound, and posts any event body to its webhook route. No network, no shared state between tests.
//!
//! ```toml
//! [dev-dependencies]
//! crossborder-testkit = "0.1"
//! ```
//!
//! ```sh
//! cargo test -p crossborder --example sandbox_in_tests --features axum   # runs the tests below
//! cargo run -p crossborder --example sandbox_in_tests                    # runs main against a fresh sandbox
//! ```

use crossborder::{
    dec,
    types::{FiatCurrency, LocalBank, PayoutRequest},
    Client, Currency, Decimal, Error,
};
use crossborder_testkit::{fixtures, TestSandbox};

/// Your application's code: pays a supplier their invoice in NGN to their
/// bank account and returns the payout's session id.
async fn pay_supplier(
    client: &Client,
    supplier: LocalBank,
    invoice: &str,
    amount: Decimal,
) -> Result<String, Error> {
    let payout = PayoutRequest::pay(amount, FiatCurrency::Ngn, supplier)
        .with_session_id(format!("invoice-{invoice}"))
        .narration(format!("Invoice {invoice}"));
    Ok(client.payouts().create(&payout).await?.session_id)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let id = pay_supplier(&client, fixtures::ngn_bank(), "2291", dec!(2500.00)).await?;
    println!(
        "paid: {id}; NGN balance {}",
        client.wallet().balance(Currency::Ngn).await?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crossborder::types::TransactionStatus;
    use crossborder_testkit::{open_ngn_collection, pay_collection, wait_for_status};

    #[tokio::test]
    async fn paying_an_invoice_debits_the_wallet_once() {
        let sandbox = TestSandbox::start().await;
        let client = sandbox.client(TestSandbox::KEY);

        let pay = || pay_supplier(&client, fixtures::ngn_bank(), "2291", dec!(2500.00));
        let id = pay().await.unwrap();
        // A retry of the same invoice is the same payout: no second debit.
        assert_eq!(pay().await.unwrap(), id);

        let state = wait_for_status(
            &client,
            &id,
            TransactionStatus::Completed,
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert_eq!(state.amount, dec!(2500.00));
        let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
        assert_eq!(balance.amount, dec!(4_997_500));
    }

    /// A collection paid in part waits in `PARTIALLY_PAID`, a status that
    /// is not final: `wait_for_status` waits for it, bounded.
    #[tokio::test]
    async fn a_part_payment_leaves_the_collection_partially_paid() {
        let sandbox = TestSandbox::start().await;
        let client = sandbox.client(TestSandbox::KEY);
        let collection = open_ngn_collection(&client, "order-7", dec!(50_000))
            .await
            .unwrap();
        let memo = collection.pay_reference.unwrap();
        pay_collection(&client, &memo, dec!(20_000), "fund-order-7")
            .await
            .unwrap();

        let partial = wait_for_status(
            &client,
            "order-7",
            TransactionStatus::PartiallyPaid,
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert_eq!(partial.paid_amount, Some(dec!(20_000)));
    }

    /// Your webhook route, given an event nobody sent: the SDK's receiver
    /// accepts the body (200) and confirms it against the sandbox before
    /// your handler acts, so a forged "paid" never marks an order paid.
    #[cfg(feature = "axum")]
    #[tokio::test]
    async fn a_forged_event_is_not_acted_on() {
        use crossborder::webhook::{Delivery, Receiver, Verdict};
        use crossborder_testkit::{post_event, within, LocalServer};
        use tokio::sync::mpsc;

        let sandbox = TestSandbox::start().await;
        let client = sandbox.client(TestSandbox::KEY);
        open_ngn_collection(&client, "order-9", dec!(50_000))
            .await
            .unwrap();
        let (acted, mut actions) = mpsc::unbounded_channel();
        let route = Receiver::new(client.clone()).route(move |delivery: Delivery| {
            let acted = acted.clone();
            async move {
                let _ = acted.send(matches!(delivery.verdict, Verdict::Confirmed(_)));
            }
        });
        // Your app's route on 127.0.0.1, stopped when `server` is dropped.
        let server = LocalServer::start(axum::Router::new().route("/hooks", route)).await;

        let forged = r#"{"reference": "order-9", "status": "COMPLETED", "amount": "50000",
                         "paidAmount": "50000", "currency": "NGN"}"#;
        let reply = post_event(&server.url("/hooks"), forged).await.unwrap();
        assert_eq!(reply.status, 200, "{}", reply.text);
        let verified = within(Duration::from_secs(10), actions.recv()).await;
        assert_eq!(verified, Some(false), "a forged event was confirmed");
    }
}
