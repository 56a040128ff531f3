//! Testing your own code against the sandbox: start
//! `crossborder_sandbox::Sandbox` in a `#[tokio::test]` on a free loopback
//! port, point a client at it, and assert on balances and transactions. No
//! network, no shared state between tests (each starts its own sandbox).
//!
//! ```sh
//! cargo test -p crossborder --example sandbox_in_tests   # runs the tests below
//! cargo run -p crossborder --example sandbox_in_tests    # runs main against a fresh sandbox
//! ```

use crossborder::{
    types::{FiatCurrency, LocalBank, LocalBankCurrency, PayoutRequest},
    Client, Currency, Decimal, Error,
};
use crossborder_sandbox::{Sandbox, SandboxConfig};

/// Your application's code: pays a supplier their invoice in NGN and
/// returns the payout's session id.
async fn pay_supplier(client: &Client, invoice: &str, amount: Decimal) -> Result<String, Error> {
    let payout = PayoutRequest::pay(
        amount,
        FiatCurrency::Ngn,
        LocalBank {
            currency: LocalBankCurrency::Ngn,
            account_number: "0123456789".into(),
            account_name: "ADAEZE OKAFOR".into(),
            bank_name: "Guaranty Trust Bank".into(),
            bank_code: "058".into(),
        },
    )
    .with_session_id(format!("invoice-{invoice}"))
    .narration(format!("Invoice {invoice}"));
    Ok(client.payouts().create(&payout).await?.session_id)
}

/// A client for a sandbox (its staging key).
fn client_for(base_url: &str) -> Result<Client, Error> {
    Client::builder()
        .api_key("test_sandbox_key")
        .base_url(base_url)
        .build()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start(SandboxConfig::default()).await?;
    let client = client_for(sandbox.base_url())?;
    let id = pay_supplier(&client, "2291", Decimal::new(250_000, 2)).await?;
    println!(
        "paid: {id}; NGN balance {}",
        client.wallet().balance(Currency::Ngn).await?
    );
    sandbox.shutdown().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder::types::TransactionStatus;

    #[tokio::test]
    async fn paying_an_invoice_debits_the_wallet_once() {
        let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
        let client = client_for(sandbox.base_url()).unwrap();

        let id = pay_supplier(&client, "2291", Decimal::new(250_000, 2))
            .await
            .unwrap();
        // A retry of the same invoice is the same payout: no second debit.
        assert_eq!(
            pay_supplier(&client, "2291", Decimal::new(250_000, 2))
                .await
                .unwrap(),
            id
        );

        let state = client.payouts().get(&id).await.unwrap();
        assert_eq!(state.status, TransactionStatus::Completed);
        let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
        assert_eq!(balance.amount, Decimal::new(4_997_500, 0));
        sandbox.shutdown().await;
    }
}
