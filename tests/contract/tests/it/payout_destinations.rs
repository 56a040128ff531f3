//! Typed destinations, quotes and verified recipients against the sandbox:
//! every kind of currency pair is paid to every destination family it can
//! reach (fiat and crypto sources alike), an unverified recipient is never
//! paid, and nothing is debited for a refused payout.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use crossborder::{
    types::{
        CanadianBank, CryptoCurrency, CryptoSource, CryptoWallet, Destination, EurBank,
        FiatCurrency, LocalBank, OtherFiatCurrency, PayoutRequest, PayoutSource, QuoteRequest,
        TransactionStatus,
    },
    Currency, Decimal, Error,
};
use crossborder_contract_tests::{balance, d, quote, quote_of, staging, Env, STAGING_KEY};
use crossborder_sandbox::SandboxConfig;
use crossborder_testkit::fixtures::{
    canadian_bank, eur_bank, kes_bank, ngn_bank, other_fiat_account, ugx_bank, uk_bank, us_bank,
};

/// The kit's NGN bank account under `account_name`.
fn gtbank(account_name: &str) -> LocalBank {
    LocalBank {
        account_name: account_name.into(),
        ..ngn_bank()
    }
}

/// The kit's euro bank, with its optional bank name given.
fn eur_bank_named() -> EurBank {
    EurBank {
        bank_name: Some("Deutsche Bank".into()),
        ..eur_bank()
    }
}

/// The kit's Canadian bank, without its optional bank name.
fn canadian_bank_unnamed() -> CanadianBank {
    CanadianBank {
        bank_name: None,
        ..canadian_bank()
    }
}

fn wallet(currency: CryptoCurrency, network: &str, address: &str) -> Destination {
    CryptoWallet {
        currency,
        address: address.into(),
        network: network.into(),
    }
    .into()
}

fn usdt_on(network: &str) -> PayoutSource {
    CryptoSource {
        currency: CryptoCurrency::Usdt,
        network: network.into(),
    }
    .into()
}

const TRON_ADDRESS: &str = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
const EVM_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

/// Every kind of pair with every destination family it reaches: same
/// currency and cross currency from fiat, and from crypto, to each fiat
/// family (NGN, KES and UGX banks, US, UK, euro and Canadian banks, GHS, XOF
/// and XAF accounts), and fiat or crypto to a wallet.
fn payouts() -> Vec<(PayoutSource, Destination)> {
    use FiatCurrency::{Cad, Eur, Gbp, Ghs, Kes, Ngn, Ugx, Usd};
    let fiat = PayoutSource::from;
    vec![
        // Same-currency fiat.
        (fiat(Ngn), ngn_bank().into()),
        (fiat(Kes), kes_bank().into()),
        (fiat(Ugx), ugx_bank().into()),
        (fiat(Usd), us_bank().into()),
        (fiat(Gbp), uk_bank().into()),
        (fiat(Eur), eur_bank_named().into()),
        (fiat(Cad), canadian_bank_unnamed().into()),
        (fiat(Ghs), other_fiat_account(OtherFiatCurrency::Ghs).into()),
        // Cross-currency fiat.
        (fiat(Usd), ngn_bank().into()),
        (fiat(Usd), kes_bank().into()),
        (fiat(Ngn), ugx_bank().into()),
        (fiat(Ngn), us_bank().into()),
        (fiat(Usd), uk_bank().into()),
        (fiat(Usd), eur_bank_named().into()),
        (fiat(Usd), canadian_bank_unnamed().into()),
        (fiat(Usd), other_fiat_account(OtherFiatCurrency::Xof).into()),
        // Fiat to crypto.
        (
            fiat(Usd),
            wallet(CryptoCurrency::Usdc, "tron", TRON_ADDRESS),
        ),
        // Crypto to crypto: the same currency, then another.
        (
            usdt_on("tron"),
            wallet(CryptoCurrency::Usdt, "tron", TRON_ADDRESS),
        ),
        (
            usdt_on("tron"),
            wallet(CryptoCurrency::Usdc, "ethereum", EVM_ADDRESS),
        ),
        // Crypto to fiat.
        (usdt_on("tron"), ngn_bank().into()),
        (usdt_on("trc20"), ugx_bank().into()),
        (usdt_on("ethereum"), us_bank().into()),
        (usdt_on("tron"), uk_bank().into()),
        (usdt_on("tron"), eur_bank_named().into()),
        (usdt_on("tron"), canadian_bank_unnamed().into()),
        (
            usdt_on("tron"),
            other_fiat_account(OtherFiatCurrency::Xaf).into(),
        ),
    ]
}

#[tokio::test]
async fn every_pair_kind_is_paid_to_every_destination_family() {
    let mut config = SandboxConfig::default();
    for currency in [
        Currency::Kes,
        Currency::Ugx,
        Currency::Gbp,
        Currency::Eur,
        Currency::Cad,
        Currency::Ghs,
    ] {
        config = config.with_starting_balance(currency, d("1000000"));
    }
    let env = Env::start_with(config).await;
    let client = env.client(STAGING_KEY);
    let mut debited: BTreeMap<Currency, Decimal> = BTreeMap::new();
    for (source, destination) in payouts() {
        let (from, to) = (source.currency(), destination.currency());
        let amount = d("10");
        let payout = if from == to {
            PayoutRequest::pay(amount, source.clone(), destination)
        } else {
            let quote = quote(&client, QuoteRequest::new(from, to, amount)).await;
            match source.network() {
                Some(network) => PayoutRequest::from_crypto_quote(&quote, network, destination),
                None => PayoutRequest::from_quote(&quote, destination),
            }
            .unwrap()
        };
        let receipt = client.payouts().create(&payout).await.unwrap();
        assert_eq!(receipt.session_id, payout.session_id);

        let state = client.payouts().get(&payout.session_id).await.unwrap();
        assert_eq!(state.status, TransactionStatus::Completed, "{from} -> {to}");
        assert_eq!((state.from_currency, state.to_currency), (from, to));
        assert_eq!(state.amount, amount);
        assert_eq!(state.rate_key, payout.rate_key, "{from} -> {to}");
        let total = state.total_amount;
        if from == to {
            assert_eq!((total, state.to_amount), (amount, amount), "{from}");
        } else {
            // 0.5 % fee in the source currency.
            assert_eq!(total, d("10.05"), "{from} -> {to}");
        }
        *debited.entry(from).or_default() += total;
    }
    let start: BTreeMap<Currency, Decimal> = BTreeMap::from([
        (Currency::Ngn, d("5000000")),
        (Currency::Usd, d("10000")),
        (Currency::Usdt, d("10000")),
    ]);
    assert_eq!(debited.len(), 9);
    for (currency, spent) in debited {
        let before = start.get(&currency).copied().unwrap_or(d("1000000"));
        assert_eq!(
            client.wallet().balance(currency).await.unwrap().amount,
            before - spent,
            "{currency}"
        );
    }
}

#[tokio::test]
async fn a_sandbox_quote_is_good_for_its_lifetime_whatever_the_real_time() {
    // The sandbox's manual clock is not the real time; the quote's Date
    // header is on the sandbox's clock, so the lifetime is its 300 s.
    let env = Env::start().await;
    let reply = env.get("/api/qoutes/USDT/NGN/10").await;
    assert_eq!(reply.headers["date"], "Sat, 21 Nov 2026 12:00:00 GMT");
    assert_eq!(reply.body["data"]["expiresAt"], "2026-11-21T12:05:00.000Z");

    let client = env.client(STAGING_KEY);
    let before = SystemTime::now();
    let quote = quote_of(&client, Currency::Usdt, Currency::Ngn, "10").await;
    assert!(!quote.is_expired());
    assert!(quote.valid_until >= before + Duration::from_secs(300));
    assert!(quote.valid_until <= SystemTime::now() + Duration::from_secs(300));

    // Once the sandbox's clock passes expiresAt, the SDK's own check still
    // lets it through (its clock says 300 s), and the sandbox refuses it
    // with the spec's error shape; nothing is debited.
    env.clock.advance(Duration::from_secs(301));
    let payout = PayoutRequest::from_crypto_quote(&quote, "tron", ngn_bank()).unwrap();
    match client.payouts().create(&payout).await.unwrap_err() {
        Error::Api {
            status: 400,
            message,
            ..
        } => {
            assert_eq!(message, "rateKey is unknown or expired")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(balance(&client, Currency::Usdt).await, d("10000"));
}

#[tokio::test]
async fn a_verified_payout_is_sent_when_the_names_match_in_any_order_or_case() {
    let (_env, client) = staging().await;
    let payout = PayoutRequest::pay(d("2500"), FiatCurrency::Ngn, gtbank("Okafor, Adaeze"));
    client.payouts().create_verified(&payout).await.unwrap();
    let state = client.payouts().get(&payout.session_id).await.unwrap();
    assert_eq!(state.status, TransactionStatus::Completed);
    assert_eq!(balance(&client, Currency::Ngn).await, d("4997500"));
}

#[tokio::test]
async fn a_recipient_whose_name_differs_is_never_paid() {
    let (_env, client) = staging().await;
    let payout = PayoutRequest::pay(d("2500"), FiatCurrency::Ngn, gtbank("Chidi Okafor"));
    let error = client.payouts().create_verified(&payout).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "account 0123456789 is in the name of \"ADAEZE OKAFOR\", not \"Chidi Okafor\"; \
         the payout was not sent"
    );
    match error {
        Error::RecipientMismatch {
            account_number,
            expected,
            resolved,
        } => {
            assert_eq!(account_number, "0123456789");
            assert_eq!(expected, "Chidi Okafor");
            assert_eq!(resolved, "ADAEZE OKAFOR");
        }
        other => panic!("{other:?}"),
    }
    match client.payouts().get(&payout.session_id).await.unwrap_err() {
        Error::Api { status: 404, .. } => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(balance(&client, Currency::Ngn).await, d("5000000"));
}

#[tokio::test]
async fn a_payout_without_a_bank_code_cannot_be_verified() {
    let (_env, client) = staging().await;
    let payout = PayoutRequest::pay(d("10"), FiatCurrency::Usd, us_bank());
    match client.payouts().create_verified(&payout).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "bankCode: is required to verify the recipient (resolve-bank needs accountNumber, \
             bankCode and accountName; toCurrency is USD)"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(balance(&client, Currency::Usd).await, d("10000"));
}
