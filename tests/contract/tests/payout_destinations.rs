//! Typed destinations, quotes and verified recipients against the sandbox:
//! every destination family is paid from a quote, an unverified recipient is
//! never paid, and nothing is debited for a refused payout.

use crossborder::{
    CanadianBank, CryptoCurrency, CryptoWallet, Currency, Destination, Error, EurBank, LocalBank,
    LocalBankCurrency, OtherFiatAccount, OtherFiatCurrency, PayoutRequest, QuoteRequest,
    TransactionStatus, UkBank, UsBank,
};
use crossborder_contract_tests::{d, Env, STAGING_KEY};

fn gtbank(account_name: &str) -> LocalBank {
    LocalBank {
        currency: LocalBankCurrency::Ngn,
        account_number: "0123456789".into(),
        account_name: account_name.into(),
        bank_name: "Guaranty Trust Bank".into(),
        bank_code: "058".into(),
    }
}

/// One destination of each family, each paid from USD through a quote.
fn families() -> Vec<Destination> {
    vec![
        gtbank("ADAEZE OKAFOR").into(),
        LocalBank {
            currency: LocalBankCurrency::Kes,
            account_number: "254712345678".into(),
            account_name: "WANJIKU KAMAU".into(),
            bank_name: "Equity Bank Kenya".into(),
            bank_code: "68".into(),
        }
        .into(),
        UkBank {
            account_number: "31926819".into(),
            account_name: "JANE SMITH".into(),
            bank_name: "Barclays Bank".into(),
            sort_code: "20-00-00".into(),
            swift_code: "BARCGB22".into(),
        }
        .into(),
        EurBank {
            iban: "DE89 3704 0044 0532 0130 00".into(),
            account_name: "MAX MUSTERMANN".into(),
            swift_code: "DEUTDEFF".into(),
            bank_name: Some("Deutsche Bank".into()),
        }
        .into(),
        CanadianBank {
            account_number: "1234567".into(),
            account_name: "ALEX MARTIN".into(),
            transit_number: "00012".into(),
            institution_number: "003".into(),
            bank_name: None,
        }
        .into(),
        CryptoWallet {
            currency: CryptoCurrency::Usdc,
            address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8".into(),
            network: "tron".into(),
        }
        .into(),
        OtherFiatAccount {
            currency: OtherFiatCurrency::Ghs,
            account_number: None,
            account_name: Some("KOFI MENSAH".into()),
            bank_name: None,
            bank_code: None,
        }
        .into(),
    ]
}

#[tokio::test]
async fn every_destination_family_is_paid_from_a_quote() {
    let env = Env::start().await;
    let client = env.client(STAGING_KEY);
    let mut debited = d("0");
    for destination in families() {
        let to = destination.currency();
        let quote = client
            .quotes()
            .get(QuoteRequest::new(Currency::Usd, to, d("10")))
            .await
            .unwrap();
        let payout = PayoutRequest::from_quote(&quote, destination).unwrap();
        let receipt = client.payouts().create(&payout).await.unwrap();
        assert_eq!(receipt.session_id, payout.session_id);
        let state = client.payouts().get(&payout.session_id).await.unwrap();
        assert_eq!(state.status, TransactionStatus::Completed, "{to}");
        assert_eq!(state.to_currency, to);
        assert_eq!(state.rate_key.as_deref(), Some(quote.rate_key.as_str()));
        assert_eq!(state.to_amount, quote.to_amount, "{to}");
        debited += quote.total_amount.unwrap();
    }
    // Seven payouts of 10 USD and their 0.05 USD fees.
    assert_eq!(debited, d("70.35"));
    assert_eq!(
        client.wallet().balance(Currency::Usd).await.unwrap().amount,
        d("10000") - debited
    );
}

#[tokio::test]
async fn a_verified_payout_is_sent_when_the_names_match_in_any_order_or_case() {
    let env = Env::start().await;
    let client = env.client(STAGING_KEY);
    let payout = PayoutRequest::pay(d("2500"), Currency::Ngn, gtbank("Okafor, Adaeze"));
    client.payouts().create_verified(&payout).await.unwrap();
    let state = client.payouts().get(&payout.session_id).await.unwrap();
    assert_eq!(state.status, TransactionStatus::Completed);
    assert_eq!(
        client.wallet().balance(Currency::Ngn).await.unwrap().amount,
        d("4997500")
    );
}

#[tokio::test]
async fn a_recipient_whose_name_differs_is_never_paid() {
    let env = Env::start().await;
    let client = env.client(STAGING_KEY);
    let payout = PayoutRequest::pay(d("2500"), Currency::Ngn, gtbank("Chidi Okafor"));
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
    assert_eq!(
        client.wallet().balance(Currency::Ngn).await.unwrap().amount,
        d("5000000")
    );
}

#[tokio::test]
async fn a_payout_without_a_bank_code_cannot_be_verified() {
    let env = Env::start().await;
    let client = env.client(STAGING_KEY);
    let payout = PayoutRequest::pay(
        d("10"),
        Currency::Usd,
        UsBank {
            account_number: "123456789".into(),
            account_name: "JOHN DOE".into(),
            bank_name: "JPMorgan Chase Bank".into(),
        },
    );
    match client.payouts().create_verified(&payout).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "bankCode: is required to verify the recipient (resolve-bank needs accountNumber, \
             bankCode and accountName; toCurrency is USD)"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        client.wallet().balance(Currency::Usd).await.unwrap().amount,
        d("10000")
    );
}
