//! A small marketplace (feature `axum`): a buyer pays an order by NGN bank
//! transfer, the webhook confirms it, and the seller is paid their share,
//! once, however often the settlement runs.
//!
//! 1. the order is a collection: the buyer gets the account to pay into,
//!    the amount and the memo to write as narration (`payer_memo`);
//! 2. the SDK's webhook `Receiver` confirms each event with the service
//!    before the handler marks the order paid;
//! 3. the settlement pays the seller under a session id derived from the
//!    order (`settlement-<order>`) with `payouts().create_or_get`, so running
//!    it again (a retry, a restart) finds the payout made and pays nothing.
//!
//! ```sh
//! cargo run -p crossborder-cli -- sandbox &
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --features axum --example marketplace
//! # or against a sandbox in the test process:
//! cargo test -p crossborder --features axum --example marketplace
//! ```

use std::time::Duration;

use crossborder::webhook::{Delivery, Receiver, Verdict};
use crossborder::{
    dec, types::CollectionRequest, types::FiatCurrency, types::LocalBank, types::LocalBankCurrency,
    types::PayoutRequest, types::SimulateFundingRequest, types::Transaction,
    types::TransactionStatus, Client, Currency, Decimal,
};
use tokio::sync::mpsc;

/// The marketplace keeps 5 % of each order.
const COMMISSION: Decimal = dec!(0.05);

/// What became of one order.
#[derive(Debug)]
struct Sold {
    /// The order as the webhook confirmed it paid.
    paid: Transaction,
    /// The seller's payout, from each settlement run.
    payouts: Vec<Transaction>,
}

/// The seller's bank account.
fn seller() -> LocalBank {
    LocalBank {
        currency: LocalBankCurrency::Ngn,
        account_number: "0123456789".into(),
        account_name: "ADAEZE OKAFOR".into(),
        bank_name: "Guaranty Trust Bank".into(),
        bank_code: "058".into(),
    }
}

/// Pays the seller of `order` their share of `paid`: under the order's
/// settlement id, so a second run finds the payout and sends nothing.
async fn settle(client: &Client, order: &str, paid: Decimal) -> crossborder::Result<Transaction> {
    let settlement = format!("settlement-{order}");
    match client.payouts().get(&settlement).await {
        Ok(made) => println!("{settlement} was already made: {}", made.status),
        Err(error) if error.is_not_found() => println!("{settlement}: not paid yet"),
        Err(error) => return Err(error),
    }
    let share = (paid * (Decimal::ONE - COMMISSION)).round_dp(2);
    let payout = PayoutRequest::pay(share, FiatCurrency::Ngn, seller())
        .with_session_id(settlement)
        .narration(format!("Order {order}"));
    client.payouts().create_or_get(&payout).await
}

async fn sell(client: &Client, order: &str) -> Result<Sold, Box<dyn std::error::Error>> {
    // The webhook receiver: only a change the service confirms reaches the
    // order book.
    let (confirmed, mut paid_orders) = mpsc::unbounded_channel();
    let route = Receiver::new(client.clone()).route(move |delivery: Delivery| {
        match delivery.verdict {
            Verdict::Confirmed(change)
                if change.transaction.status == TransactionStatus::Completed =>
            {
                let _ = confirmed.send(change.transaction);
            }
            Verdict::Confirmed(change) => {
                let order = change.transaction;
                println!("order {} is {}", order.payment_reference, order.status);
            }
            // A later change supersedes the event: its own event, or the
            // final read, says what holds now.
            Verdict::Superseded(_) => {}
            Verdict::Unconfirmed(why) => println!("webhook ignored: {why}"),
        }
        async {}
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/hooks/crossborder", listener.local_addr()?);
    let app = axum::Router::new().route("/hooks/crossborder", route);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    client.webhooks().set_url(&url).await?;

    // 1. The order, collected by bank transfer.
    let collection = client
        .collections()
        .create(&CollectionRequest::new(
            order,
            dec!(50_000.00),
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await?;
    let memo = collection.payer_memo().ok_or("a collection has a memo")?;
    for instruction in &collection.payment_instructions {
        println!(
            "buyer: transfer {} NGN to {} ({}, {}) with the narration {memo}",
            instruction.amount_to_transfer_text,
            instruction.account_number,
            instruction.account_name,
            instruction.bank_name
        );
    }

    // The buyer pays (staging only: a simulated transfer).
    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            collection.amount,
            memo,
            format!("transfer-{order}"),
        ))
        .await?;

    // 2. The webhook confirms it.
    let paid = tokio::time::timeout(Duration::from_secs(30), paid_orders.recv())
        .await?
        .ok_or("the receiver stopped")?;
    server.abort();
    println!("order {} is paid", paid.payment_reference);

    // 3. The settlement, run twice (as a retry or a restart would): one payout.
    let paid_amount = paid.paid_amount.unwrap_or(paid.amount);
    let mut payouts = Vec::new();
    for _ in 0..2 {
        let payout = settle(client, order, paid_amount).await?;
        println!(
            "payout {}: {} NGN, {}",
            payout.payment_reference, payout.amount, payout.status
        );
        payouts.push(payout);
    }
    Ok(Sold { paid, payouts })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::from_env()?;
    let order = format!("order-{}", std::process::id());
    let sold = sell(&client, &order).await?;
    let made: std::collections::BTreeSet<_> = sold
        .payouts
        .iter()
        .map(|payout| &payout.transaction_id)
        .collect();
    println!(
        "order {} paid; {} settlement runs, {} payout; NGN balance {}",
        sold.paid.payment_reference,
        sold.payouts.len(),
        made.len(),
        client.wallet().balance(Currency::Ngn).await?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder_sandbox::{Sandbox, SandboxConfig};

    #[tokio::test]
    async fn the_order_is_confirmed_by_webhook_and_the_seller_paid_once() {
        let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
        let client = Client::builder()
            .api_key("test_sandbox_key")
            .base_url(sandbox.base_url())
            .build()
            .unwrap();

        let sold = sell(&client, "order-77").await.unwrap();
        assert_eq!(sold.paid.payment_reference, "order-77");
        assert_eq!(sold.paid.paid_amount, Some(dec!(50000)));
        assert_eq!(sold.payouts.len(), 2);
        assert_eq!(sold.payouts[0].payment_reference, "settlement-order-77");
        assert_eq!(sold.payouts[0].amount, dec!(47500.00));
        assert_eq!(sold.payouts[0].status, TransactionStatus::Completed);
        assert_eq!(
            sold.payouts[1].transaction_id,
            sold.payouts[0].transaction_id
        );
        // 5,000,000 NGN at the start, the order's 50,000 in, the seller's
        // 47,500 out once.
        let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
        assert_eq!(balance.amount, dec!(5_002_500));
        sandbox.shutdown().await;
    }
}
