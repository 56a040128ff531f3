//! `crossborder-bench spec-reuse-reference`: the amounts the Rust SDK
//! reads for the requests of the examples' flow
//! (`examples/python/flow.py`, `examples/typescript/src/flow.ts`): the
//! same amounts sent, in the same order, by a business of its own that
//! starts where theirs do. `cargo xtask spec-reuse` runs it and each
//! example compares every amount it reads with these, by name, as exact
//! decimals. It lives here, not in xtask, so that xtask depends on no crate
//! it generates code into.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use crossborder::{
    types::CollectionRequest, types::FiatCurrency, types::LocalBank, types::LocalBankCurrency,
    types::PayoutRequest, types::QuoteRequest, types::Rail, types::SimulateFundingRequest,
    types::Transaction, Client, Currency, Decimal,
};

/// The amounts the examples send (they write them as the same decimals).
const QUOTE_AMOUNT: (i64, u32) = (12345, 2);
const COLLECTION_AMOUNT: (i64, u32) = (5000010, 2);
const SAME_CURRENCY_PAYOUT: (i64, u32) = (100050, 2);

/// Name -> amount, as the SDK read it.
type Readings = BTreeMap<String, String>;

/// Prints [`run`]'s readings as one JSON object (name to decimal string)
/// on stdout.
pub fn print(base_url: &str, api_key: &str) -> Result<()> {
    let read = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting a tokio runtime")?
        .block_on(run(base_url, api_key))?;
    println!(
        "{}",
        serde_json::to_string_pretty(&read).context("writing the readings")?
    );
    Ok(())
}

/// Runs the flow's money steps with `api_key` against the sandbox at
/// `base_url`; returns every amount read.
async fn run(base_url: &str, api_key: &str) -> Result<Readings> {
    let client = Client::builder()
        .api_key(api_key)
        .base_url(base_url)
        .build()
        .context("building the SDK client")?;
    let mut read = Readings::new();
    let mut put = |name: &str, value: Option<Decimal>| -> Result<()> {
        let value = value.with_context(|| format!("the Rust SDK read no {name}"))?;
        read.insert(name.to_owned(), value.to_string());
        Ok(())
    };
    let dec = |(mantissa, scale): (i64, u32)| Decimal::new(mantissa, scale);
    let run = std::process::id();

    balances(&client, &mut put, "start").await?;

    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec(QUOTE_AMOUNT)).rail(Rail::Swift))
        .await?;
    put("quote.rate", quote.rate.exact())?;
    put("quote.roundedRate", quote.rounded_rate.exact())?;
    put("quote.fee", quote.fee.exact())?;
    put("quote.toAmount", quote.to_amount.exact())?;
    put("quote.totalAmount", quote.total_amount.exact())?;

    let reference = format!("rust-{run}");
    let created = client
        .collections()
        .create(&CollectionRequest::new(
            &reference,
            dec(COLLECTION_AMOUNT),
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await?;
    put("collection.created.amount", created.amount.exact())?;
    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            dec(COLLECTION_AMOUNT),
            created.pay_reference.clone().unwrap_or_default(),
            format!("rust-fund-{run}"),
        ))
        .await?;
    let collection = client.collections().get(&reference).await?;
    transaction(&mut put, "collection.read", &collection)?;
    put("collection.read.paidAmount", collection.paid_amount.exact())?;
    put(
        "balance.NGN.funded",
        client.wallet().balance(Currency::Ngn).await?.amount.exact(),
    )?;

    let bank = LocalBank {
        currency: LocalBankCurrency::Ngn,
        account_number: "0123456789".into(),
        account_name: "ADAEZE OKAFOR".into(),
        bank_name: "Guaranty Trust Bank".into(),
        bank_code: "058".into(),
    };
    let same = PayoutRequest::pay(dec(SAME_CURRENCY_PAYOUT), FiatCurrency::Ngn, bank.clone())
        .narration("spec-reuse same");
    let converting = PayoutRequest::from_quote(&quote, bank)
        .context("the converting payout from the quote")?
        .narration("spec-reuse converting");
    for (kind, payout) in [("same", same), ("converting", converting)] {
        let receipt = client.payouts().create(&payout).await?;
        let read_back = client.payouts().get(&receipt.session_id).await?;
        transaction(&mut put, &format!("payout.{kind}"), &read_back)?;
    }
    balances(&client, &mut put, "end").await?;
    Ok(read)
}

/// An amount the SDK read, whether its field is optional or not (the SDK
/// makes fields the spec requires plain values).
trait ReadAmount {
    fn exact(self) -> Option<Decimal>;
}

impl ReadAmount for Decimal {
    fn exact(self) -> Option<Decimal> {
        Some(self)
    }
}

impl ReadAmount for Option<Decimal> {
    fn exact(self) -> Option<Decimal> {
        self
    }
}

/// The NGN and USD balances, as `balance.NGN.<when>` and
/// `balance.USD.<when>`.
async fn balances(
    client: &Client,
    put: &mut impl FnMut(&str, Option<Decimal>) -> Result<()>,
    when: &str,
) -> Result<()> {
    for currency in [Currency::Ngn, Currency::Usd] {
        let balance = client.wallet().balance(currency).await?;
        put(
            &format!("balance.{currency}.{when}"),
            balance.amount.exact(),
        )?;
    }
    Ok(())
}

/// The amounts of a transaction both examples compare, under `prefix`.
fn transaction(
    put: &mut impl FnMut(&str, Option<Decimal>) -> Result<()>,
    prefix: &str,
    tx: &Transaction,
) -> Result<()> {
    put(&format!("{prefix}.amount"), tx.amount.exact())?;
    put(&format!("{prefix}.toAmount"), tx.to_amount.exact())?;
    put(&format!("{prefix}.totalAmount"), tx.total_amount.exact())?;
    put(&format!("{prefix}.fee"), tx.fee.exact())?;
    put(&format!("{prefix}.rate"), tx.rate.exact())
}
