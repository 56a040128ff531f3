//! `crossborder demo`: the whole money flow against a sandbox started in
//! this process on a free loopback port, with a local webhook receiver, one
//! short paragraph per step showing what was sent and what came back.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use axum::Router;
use crossborder::webhook::{Delivery, Receiver};
use crossborder::{
    dec,
    types::{
        CollectionRequest, LocalBank, LocalBankCurrency, PayoutRequest, QuoteRequest,
        SimulateFundingRequest, TransactionStatus,
    },
    Client, Currency, Decimal,
};
use crossborder_sandbox::{Sandbox, SandboxConfig};
use tokio::sync::mpsc;

use crate::cli::SANDBOX_KEY;
use crate::failure::Failure;

/// How long the demo waits for the webhook after the funding (generous: a
/// loaded machine delivers late, and only a lost event should fail).
const WEBHOOK_WAIT: Duration = Duration::from_secs(30);

/// The payout body the demo suggests trying next, as the API's JSON (in
/// single quotes on a shell line, so it holds none).
pub const TRY_PAYOUT: &str = r#"{"amount": "2500.00", "fromCurrency": "NGN", "toCurrency": "NGN", "sessionId": "try-payout-1", "accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR", "bankName": "Guaranty Trust Bank", "bankCode": "058"}"#;

pub async fn run() -> Result<(), Failure> {
    let sandbox = Sandbox::start(
        SandboxConfig::default().with_addr(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))),
    )
    .await
    .map_err(|e| Failure::runtime(format!("cannot start the sandbox: {e}")))?;
    let (events, mut received) = mpsc::channel::<Delivery>(8);
    let receiver = start_receiver(sandbox.base_url(), events).await?;
    let result = walk(sandbox.base_url(), &receiver, &mut received).await;
    sandbox.shutdown().await;
    result
}

/// The SDK's webhook receiver on a free loopback port: it answers 200 at
/// once, as the spec asks of receivers, confirms each event against the
/// sandbox at `base_url` and sends it to `events`.
async fn start_receiver(base_url: &str, events: mpsc::Sender<Delivery>) -> Result<String, Failure> {
    let client = sandbox_client(base_url)?;
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(|e| Failure::runtime(format!("cannot start the webhook receiver: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::runtime(format!("cannot start the webhook receiver: {e}")))?;
    let route = Receiver::new(client).route(move |delivery: Delivery| {
        // A full or closed channel only loses the demo's display.
        let _ = events.try_send(delivery);
        async {}
    });
    let app = Router::new().route(crate::listen::PATH, route);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(format!("http://{addr}{}", crate::listen::PATH))
}

/// A client of the demo's sandbox at `base_url`, with its staging key.
fn sandbox_client(base_url: &str) -> Result<Client, Failure> {
    Ok(Client::builder()
        .api_key(SANDBOX_KEY)
        .base_url(base_url)
        .build()?)
}

/// The NGN and USD wallets, one line each: before and after the flow.
async fn show_balances(client: &Client) -> Result<(), Failure> {
    for currency in [Currency::Ngn, Currency::Usd] {
        let balance = client.wallet().balance(currency).await?;
        say!("   {balance}");
    }
    Ok(())
}

fn step(number: u32, title: &str) {
    say!();
    say!("{number}. {title}");
}

async fn walk(
    base_url: &str,
    receiver: &str,
    received: &mut mpsc::Receiver<Delivery>,
) -> Result<(), Failure> {
    let client = sandbox_client(base_url)?;
    say!("crossborder demo: a sandbox of the API is running at {base_url}");
    say!("(staging key {SANDBOX_KEY}; nothing here touches real money)");

    step(1, "Wallet balances (GET /api/balance/{currency})");
    show_balances(&client).await?;

    step(2, "A quote: 100 USD into NGN (GET /api/qoutes/USD/NGN/100)");
    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec!(100)))
        .await?;
    say!(
        "   rate {}, fee {} USD, the recipient gets {} NGN",
        quote.rate,
        show(quote.fee, Currency::Usd),
        show(quote.to_amount, Currency::Ngn)
    );
    say!(
        "   rateKey {} carries this rate into a payout",
        quote.rate_key
    );

    step(3, "Register the webhook (PUT /api/set-webhook)");
    client.webhooks().set_url(receiver).await?;
    say!("   collection updates now go to {receiver}");

    step(4, "A collection of 50000 NGN (POST /api/initiate-payment)");
    let reference = "demo-order-1";
    let collection = client
        .collections()
        .create(&CollectionRequest::new(
            reference,
            dec!(50_000),
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await?;
    let memo = collection.pay_reference.clone().unwrap_or_default();
    for instruction in &collection.payment_instructions {
        say!(
            "   the payer transfers {} NGN to {} ({}, {}) with the narration {memo}",
            instruction.amount_to_transfer_text,
            instruction.account_number,
            instruction.account_name,
            instruction.bank_name,
        );
    }
    say!("   status {}", collection.status);

    step(
        5,
        "The payer pays (POST /api/simulate-funding, staging only)",
    );
    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            dec!(50_000),
            memo.clone(),
            "demo-funding-1",
        ))
        .await?;
    // The funding's currency names the wallet credited: the collection's
    // toCurrency (NGN here; for a converting collection its fromCurrency is
    // refused).
    say!("   50000 NGN sent with the narration {memo}, credited to the NGN wallet (the collection's toCurrency)");

    step(
        6,
        "The webhook arrives, and is confirmed by reading the transaction",
    );
    let delivery = tokio::time::timeout(WEBHOOK_WAIT, received.recv())
        .await
        .ok()
        .flatten()
        .ok_or_else(|| {
            Failure::runtime(format!(
                "no webhook arrived within {} seconds",
                WEBHOOK_WAIT.as_secs()
            ))
        })?;
    say!("   received: {}", delivery.event.raw_body());
    // The webhook is unsigned: it is a claim until the transaction, read
    // back from the API, confirms it (the receiver ran
    // crossborder::webhook::verify before handing it over). An event the
    // API does not confirm fails the demo.
    let line =
        crate::listen::describe(&delivery.event, &delivery.verdict).map_err(Failure::runtime)?;
    say!("   {line}");
    let settled = client.collections().get(reference).await?;
    if settled.status != TransactionStatus::Completed {
        return Err(Failure::runtime(format!(
            "the collection is {} after funding, not COMPLETED",
            settled.status
        )));
    }
    say!("   the settled transaction (GET /api/transaction/{reference}):");
    for line in crate::render::transaction(&settled).table() {
        say!("     {line}");
    }

    step(
        7,
        "A converting payout of the quote to a verified recipient (POST /api/payout)",
    );
    let payout = PayoutRequest::from_quote(
        &quote,
        LocalBank {
            currency: LocalBankCurrency::Ngn,
            account_number: "0123456789".into(),
            account_name: "Adaeze Okafor".into(),
            bank_name: "Guaranty Trust Bank".into(),
            bank_code: "058".into(),
        },
    )?;
    say!(
        "   rateKey {} from step 2 fixes the rate of this payout",
        payout.rate_key.as_deref().unwrap_or("?")
    );
    say!("   resolving 0123456789 at bank 058 first (POST /api/resolve-bank): the name must match");
    let receipt = client.payouts().create_verified(&payout).await?;
    let state = client.payouts().get(&receipt.session_id).await?;
    say!(
        "   sessionId {}: {}, {} USD debited, {} NGN to ADAEZE OKAFOR",
        receipt.session_id,
        state.status,
        show(Some(state.total_amount), Currency::Usd),
        show(Some(state.to_amount), Currency::Ngn)
    );

    step(8, "Balances after");
    show_balances(&client).await?;

    step(
        9,
        "A business onboarded (upload, create, director, UBO) to its decision",
    );
    crate::demo_kyb::onboard(&client).await?;

    say!();
    say!("Done. Try next, against `crossborder sandbox` running in another terminal:");
    say!(
        "   export CROSSBORDER_API_KEY={SANDBOX_KEY} CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1"
    );
    say!("   crossborder balance NGN");
    say!("   crossborder quote USD NGN 250 --json");
    say!("   echo '{TRY_PAYOUT}' | crossborder payout --dry-run --body -");
    Ok(())
}

/// An amount of `currency` with its minor units (`0.50`), as `Money` shows it.
fn show(value: Option<Decimal>, currency: Currency) -> String {
    value.map_or_else(
        || "?".to_owned(),
        |v| crossborder::rules::display_amount(v, currency).to_string(),
    )
}
