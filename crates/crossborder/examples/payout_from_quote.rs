//! A converting payout from a quote, to a recipient verified first: quote
//! 100 USD into NGN, pay it to a Nigerian bank account whose holder's name
//! is checked with resolve-bank, then track the payout by its session id.
//!
//! ```sh
//! cargo run -p crossborder-cli -- sandbox &   # or any staging base URL
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --example payout_from_quote
//! ```

use crossborder::{
    dec,
    types::{LocalBank, LocalBankCurrency, PayoutRequest, QuoteRequest},
    Client, Currency, Error,
};

#[tokio::main]
async fn main() -> Result<(), Error> {
    let client = Client::from_env()?;
    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec!(100)))
        .await?;
    let until = quote.expires_at.as_deref().unwrap_or("(no expiresAt)");
    println!("1 USD = {} NGN, quote valid until {until}", quote.rate);

    // The destination type holds every field an NGN payout needs; the
    // quote gives the amount, the currencies and the rateKey.
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
    // Keep payout.session_id: sending the same request again never pays twice.
    match client.payouts().create_verified(&payout).await {
        Ok(receipt) => {
            let state = client.payouts().get(&receipt.session_id).await?;
            println!("payout {}: {}", receipt.session_id, state.status);
        }
        Err(Error::RecipientMismatch {
            expected, resolved, ..
        }) => {
            println!("not paid: the account belongs to {resolved}, not {expected}");
        }
        Err(Error::QuoteExpired { .. }) => println!("the quote expired: get a new one"),
        Err(other) => return Err(other),
    }
    Ok(())
}
