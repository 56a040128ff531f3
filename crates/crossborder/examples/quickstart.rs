//! Quick start: read a balance, get a quote, and (in staging) create a
//! collection, simulate its payment and wait for it to settle.
//!
//! ```sh
//! CROSSBORDER_API_KEY=test_... CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --example quickstart
//! ```

use std::time::Duration;

use crossborder::{
    config::Environment,
    dec,
    types::{CollectionRequest, QuoteRequest, SimulateFundingRequest},
    Client, Currency, Error, WaitOptions,
};

#[tokio::main]
async fn main() -> Result<(), Error> {
    let client = Client::from_env()?;
    println!("{} at {}", client.environment(), client.base_url());

    let balance = client.wallet().balance(Currency::Ngn).await?;
    println!("balance: {balance}");

    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec!(100)))
        .await?;
    println!(
        "100 USD -> {:?} NGN (rate {}, key {})",
        quote.to_amount, quote.rate, quote.rate_key
    );

    if client.environment() != Environment::Staging {
        return Ok(());
    }

    let reference = format!("quickstart-{}", std::process::id());
    let amount = dec!(50_000.00);
    let collection = client
        .collections()
        .create(&CollectionRequest::new(
            &reference,
            amount,
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await?;
    let memo = collection.pay_reference.clone().unwrap_or_default();
    println!("collection {reference}: pay {amount} NGN with memo {memo}");

    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            amount,
            memo,
            format!("{reference}-funding"),
        ))
        .await?;

    let settled = client
        .collections()
        .wait_until_settled(
            &reference,
            WaitOptions::default()
                .timeout(Duration::from_secs(60))
                .initial_interval(Duration::from_millis(500)),
        )
        .await?;
    println!("collection {reference}: {}", settled.status);
    Ok(())
}
