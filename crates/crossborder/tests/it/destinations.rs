//! Typed payout destinations, session ids and quotes carried into payouts:
//! what reaches the wire (exact JSON, normalised values), and what is
//! refused before anything is sent.

use crate::common;

use crossborder_testkit::fixtures::{
    canadian_bank, eur_bank, kes_bank, ngn_bank, other_fiat_account as other_fiat, ugx_bank,
    uk_bank, us_bank,
};

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use common::mock::{self, Answers};
use common::{assert_invalid, closed_port, dec, fast_retries, setup, KEY};
use crossborder::{
    error::Rule,
    types::{
        CanadianBank, CryptoCurrency, CryptoSource, CryptoWallet, Destination, EurBank,
        FiatCurrency, LocalBank, OtherFiatCurrency, PayoutRequest, PayoutSource, Quote,
        QuoteRequest, UkBank, UsBank,
    },
    Client, Currency, Error,
};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use serde_json::{json, Value};
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn accept_payouts(server: &MockServer) {
    mock::payout()
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"message": "Payout initiated", "sessionId": "echo"})),
        )
        .mount(server)
        .await;
}

/// The JSON bodies of the payouts the server received.
async fn sent(server: &MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|request| request.url.path() == "/v1/api/payout")
        .map(|request| serde_json::from_slice(&request.body).unwrap())
        .collect()
}

/// The body without its generated sessionId (checked separately).
fn without_session(mut body: Value) -> Value {
    let id = body["sessionId"].as_str().unwrap().to_owned();
    assert!(is_uuid_v4(&id), "{id}");
    body.as_object_mut().unwrap().remove("sessionId");
    body
}

fn is_uuid_v4(id: &str) -> bool {
    let groups: Vec<&str> = id.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && id
            .chars()
            .all(|c| c == '-' || c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        && groups[2].starts_with('4')
        && matches!(groups[3].chars().next(), Some('8' | '9' | 'a' | 'b'))
}

const EVM_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const TRON_ADDRESS: &str = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";

fn wallet(currency: CryptoCurrency, network: &str, address: &str) -> CryptoWallet {
    CryptoWallet {
        currency,
        address: address.into(),
        network: network.into(),
    }
}

fn crypto(currency: CryptoCurrency, network: &str) -> PayoutSource {
    CryptoSource {
        currency,
        network: network.into(),
    }
    .into()
}

/// A typed payout: its source, destination, rate key and amount.
type Typed = (
    PayoutSource,
    Destination,
    Option<&'static str>,
    &'static str,
);

/// One cell of the table of pair kinds and destination families: a typed
/// payout with the exact body it sends (without its generated sessionId),
/// and a broken one with the exact message it is refused with.
struct Cell {
    sent: Typed,
    body: Value,
    broken: Typed,
    refused: &'static str,
}

fn typed(payout: &Typed) -> PayoutRequest {
    let (source, destination, rate_key, amount) = payout.clone();
    let request = PayoutRequest::pay(dec(amount), source, destination);
    match rate_key {
        Some(key) => request.rate_key(key),
        None => request,
    }
}

#[rustfmt::skip]
fn cells() -> Vec<Cell> {
    use CryptoCurrency::{Cngn, Usdc, Usdt};
    let fiat = |currency: FiatCurrency| PayoutSource::from(currency);
    let uk = |f: fn(&mut UkBank)| { let mut bank = uk_bank(); f(&mut bank); Destination::from(bank) };
    let eur = |f: fn(&mut EurBank)| { let mut bank = eur_bank(); f(&mut bank); Destination::from(bank) };
    let ca = |f: fn(&mut CanadianBank)| { let mut bank = canadian_bank(); f(&mut bank); Destination::from(bank) };
    let us = |account: &str| Destination::from(UsBank { account_number: account.into(), ..us_bank() });
    vec![
        // Same-currency fiat.
        Cell {
            sent: (fiat(FiatCurrency::Ngn), ngn_bank().into(), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "NGN",
                         "accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR",
                         "bankName": "Guaranty Trust Bank", "bankCode": "058"}),
            broken: (fiat(FiatCurrency::Ngn), LocalBank { account_number: "01234".into(), ..ngn_bank() }.into(), None, "100"),
            refused: "accountNumber: must be a 10-digit NUBAN account number, such as 0123456789",
        },
        Cell {
            sent: (fiat(FiatCurrency::Ugx), ugx_bank().into(), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "UGX", "toCurrency": "UGX",
                         "accountNumber": "256712345678", "accountName": "OKELLO JAMES",
                         "bankName": "Stanbic Bank Uganda", "bankCode": "031"}),
            broken: (fiat(FiatCurrency::Ugx), LocalBank { account_number: "+256712345678".into(), ..ugx_bank() }.into(), None, "100"),
            refused: "accountNumber: must be 5 to 20 digits (a UGX bank or mobile-money account number), such as 256712345678",
        },
        Cell {
            sent: (fiat(FiatCurrency::Usd), us_bank().into(), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "USD", "toCurrency": "USD",
                         "accountNumber": "123456789", "accountName": "JOHN DOE",
                         "bankName": "JPMorgan Chase Bank"}),
            broken: (fiat(FiatCurrency::Usd), us("123"), None, "100"),
            refused: "accountNumber: must be 4 to 17 digits (a US bank account number), such as 123456789, or an IBAN",
        },
        Cell {
            sent: (fiat(FiatCurrency::Gbp), uk(|b| b.swift_code = "barcgb22".into()), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "GBP", "toCurrency": "GBP",
                         "accountNumber": "31926819", "accountName": "JANE SMITH",
                         "bankName": "Barclays Bank", "sortCode": "200000", "swiftCode": "BARCGB22"}),
            broken: (fiat(FiatCurrency::Gbp), uk(|b| b.sort_code = "20-00-0".into()), None, "100"),
            refused: "sortCode: must be 6 digits, such as 12-34-56 (spaces and dashes are removed)",
        },
        Cell {
            sent: (fiat(FiatCurrency::Eur), eur(|b| b.iban = "de89 370 400 440 532 013 000".into()), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "EUR", "toCurrency": "EUR",
                         "accountNumber": "DE89370400440532013000", "accountName": "MAX MUSTERMANN",
                         "swiftCode": "DEUTDEFF"}),
            broken: (fiat(FiatCurrency::Eur), eur(|b| b.iban = "DE89 3704 0044 0532 0130 01".into()), None, "100"),
            refused: "accountNumber: is not a valid IBAN: its check digits do not match the rest \
                      (ISO 13616 mod 97), most often a typo or a part left out; a valid DE IBAN is \
                      22 characters, such as DE89 3704 0044 0532 0130 00",
        },
        Cell {
            sent: (fiat(FiatCurrency::Cad), canadian_bank().into(), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "CAD", "toCurrency": "CAD",
                         "accountNumber": "1234567", "accountName": "ALEX MARTIN",
                         "bankName": "Royal Bank of Canada", "transitNumber": "00012",
                         "institutionNumber": "003"}),
            broken: (fiat(FiatCurrency::Cad), ca(|b| b.institution_number = "0003".into()), None, "100"),
            refused: "institutionNumber: must be 3 digits (the bank's institution number), such as 003",
        },
        Cell {
            sent: (fiat(FiatCurrency::Xof), other_fiat(OtherFiatCurrency::Xof).into(), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "XOF", "toCurrency": "XOF",
                         "accountName": "KOFI MENSAH"}),
            broken: (fiat(FiatCurrency::Xof), other_fiat(OtherFiatCurrency::Xof).into(), None, "10.5"),
            refused: "amount: has more decimal places than XOF allows (0)",
        },
        // Cross-currency fiat.
        Cell {
            sent: (fiat(FiatCurrency::Usd), kes_bank().into(), Some("rk_1"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USD", "toCurrency": "KES", "rateKey": "rk_1",
                         "accountNumber": "254712345678", "accountName": "WANJIKU KAMAU",
                         "bankName": "Equity Bank Kenya", "bankCode": "68"}),
            broken: (fiat(FiatCurrency::Usd), LocalBank { bank_code: "K68".into(), ..kes_bank() }.into(), Some("rk_1"), "100"),
            refused: "bankCode: must be 2 to 6 digits, a bank code from the KES bank list such as 68",
        },
        Cell {
            sent: (fiat(FiatCurrency::Ngn), us("GB82 WEST 1234 5698 7654 32"), Some("rk_2"), "100"),
            body: json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "USD", "rateKey": "rk_2",
                         "accountNumber": "GB82WEST12345698765432", "accountName": "JOHN DOE",
                         "bankName": "JPMorgan Chase Bank"}),
            broken: (fiat(FiatCurrency::Ngn), us("GB82WEST12345698765433"), Some("rk_2"), "100"),
            refused: "accountNumber: is not a valid IBAN: its check digits do not match the rest \
                      (ISO 13616 mod 97), most often a typo or a part left out; a valid GB IBAN is \
                      22 characters, such as GB82 WEST 1234 5698 7654 32",
        },
        Cell {
            sent: (fiat(FiatCurrency::Ngn), uk(|b| b.sort_code = "20 00 00".into()), Some("rk_3"), "100"),
            body: json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "GBP", "rateKey": "rk_3",
                         "accountNumber": "31926819", "accountName": "JANE SMITH",
                         "bankName": "Barclays Bank", "sortCode": "200000", "swiftCode": "BARCGB22"}),
            broken: (fiat(FiatCurrency::Ngn), uk(|b| b.swift_code = "BARCGB2".into()), Some("rk_3"), "100"),
            refused: "swiftCode: must be a BIC (ISO 9362) of 8 or 11 characters: 4 letters (bank), \
                      2 letters (country), 2 letters or digits (location), optionally 3 letters or \
                      digits (branch), such as DEUTDEFF or DEUTDEFF500",
        },
        Cell {
            sent: (fiat(FiatCurrency::Ngn), eur(|_| ()), Some("rk_4"), "100"),
            body: json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "EUR", "rateKey": "rk_4",
                         "accountNumber": "DE89370400440532013000", "accountName": "MAX MUSTERMANN",
                         "swiftCode": "DEUTDEFF"}),
            broken: (fiat(FiatCurrency::Ngn), eur(|b| b.iban = "370400440532013000".into()), Some("rk_4"), "100"),
            refused: "accountNumber: must be an IBAN, such as DE89 3704 0044 0532 0130 00",
        },
        Cell {
            sent: (fiat(FiatCurrency::Usd), canadian_bank().into(), Some("rk_5"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USD", "toCurrency": "CAD", "rateKey": "rk_5",
                         "accountNumber": "1234567", "accountName": "ALEX MARTIN",
                         "bankName": "Royal Bank of Canada", "transitNumber": "00012",
                         "institutionNumber": "003"}),
            broken: (fiat(FiatCurrency::Usd), ca(|b| b.transit_number = "0012".into()), Some("rk_5"), "100"),
            refused: "transitNumber: must be 5 digits (the branch transit number), such as 00012",
        },
        Cell {
            sent: (fiat(FiatCurrency::Ngn), other_fiat(OtherFiatCurrency::Ghs).into(), Some("rk_6"), "100"),
            body: json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "GHS", "rateKey": "rk_6",
                         "accountName": "KOFI MENSAH"}),
            broken: (fiat(FiatCurrency::Ngn), other_fiat(OtherFiatCurrency::Ghs).into(), None, "100"),
            refused: "rateKey: is required when fromCurrency (NGN) differs from toCurrency (GHS)",
        },
        // Fiat to crypto.
        Cell {
            sent: (fiat(FiatCurrency::Ngn), wallet(Usdc, "base", EVM_ADDRESS).into(), Some("rk_7"), "100"),
            body: json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "USDC", "rateKey": "rk_7",
                         "address": EVM_ADDRESS, "toNetwork": "base"}),
            broken: (fiat(FiatCurrency::Ngn), wallet(Usdc, "tron", EVM_ADDRESS).into(), Some("rk_7"), "100"),
            refused: "address: must be an address on tron: base58check, 34 characters starting with T, \
                      such as TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
        },
        // Crypto to crypto: the same currency (one network), then two.
        Cell {
            sent: (crypto(Usdt, "tron"), wallet(Usdt, "tron", TRON_ADDRESS).into(), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "USDT", "toCurrency": "USDT",
                         "address": TRON_ADDRESS, "network": "tron"}),
            broken: (crypto(Usdt, "tron"), wallet(Usdt, "tron", "TJRabPrwbZy45sbavfcjinPJC18kjpRTv9").into(), None, "100"),
            refused: "address: has a wrong base58check checksum for tron (check it was copied whole); \
                      a valid one looks like TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
        },
        Cell {
            sent: (crypto(Usdt, "tron"), wallet(Usdt, "ethereum", EVM_ADDRESS).into(), None, "100"),
            body: json!({"amount": "100", "fromCurrency": "USDT", "toCurrency": "USDT",
                         "address": EVM_ADDRESS, "network": "ethereum", "fromNetwork": "tron"}),
            broken: (crypto(Usdt, "tron"), wallet(Usdt, "ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").into(), None, "100"),
            refused: "address: has a wrong EIP-55 checksum for ethereum: the mixed-case letters do not \
                      match the address (check it was copied whole, or write it all in lower case); \
                      a valid one looks like 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        },
        Cell {
            sent: (crypto(Usdc, "ethereum"), wallet(Usdt, "tron", TRON_ADDRESS).into(), Some("rk_8"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USDC", "toCurrency": "USDT", "rateKey": "rk_8",
                         "address": TRON_ADDRESS, "fromNetwork": "ethereum", "toNetwork": "tron"}),
            broken: (crypto(Usdc, "eth mainnet"), wallet(Usdt, "tron", TRON_ADDRESS).into(), Some("rk_8"), "100"),
            refused: "fromNetwork: must be a network name without whitespace, such as ethereum, tron or solana",
        },
        // Crypto to fiat.
        Cell {
            sent: (crypto(Usdt, "tron"), ngn_bank().into(), Some("rk_9"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USDT", "toCurrency": "NGN", "rateKey": "rk_9",
                         "fromNetwork": "tron", "accountNumber": "0123456789",
                         "accountName": "ADAEZE OKAFOR", "bankName": "Guaranty Trust Bank",
                         "bankCode": "058"}),
            broken: (crypto(Usdt, " "), ngn_bank().into(), Some("rk_9"), "100"),
            refused: "fromNetwork: is required when fromCurrency (USDT) is crypto and differs from toCurrency (NGN)",
        },
        Cell {
            sent: (crypto(Usdc, "solana"), us_bank().into(), Some("rk_10"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USDC", "toCurrency": "USD", "rateKey": "rk_10",
                         "fromNetwork": "solana", "accountNumber": "123456789",
                         "accountName": "JOHN DOE", "bankName": "JPMorgan Chase Bank"}),
            broken: (crypto(Usdc, "solana"), us_bank().into(), None, "100"),
            refused: "rateKey: is required when fromCurrency (USDC) differs from toCurrency (USD)",
        },
        Cell {
            sent: (crypto(Usdt, "tron"), uk_bank().into(), Some("rk_11"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USDT", "toCurrency": "GBP", "rateKey": "rk_11",
                         "fromNetwork": "tron", "accountNumber": "31926819", "accountName": "JANE SMITH",
                         "bankName": "Barclays Bank", "sortCode": "200000", "swiftCode": "BARCGB22"}),
            broken: (crypto(Usdt, "tron"), uk(|b| b.account_number = "3192681".into()), Some("rk_11"), "100"),
            refused: "accountNumber: must be an 8-digit UK account number, such as 31926819, or an IBAN",
        },
        Cell {
            sent: (crypto(Cngn, "ethereum"), eur(|b| b.swift_code = "DEUTDEFF500".into()), Some("rk_12"), "100"),
            body: json!({"amount": "100", "fromCurrency": "CNGN", "toCurrency": "EUR", "rateKey": "rk_12",
                         "fromNetwork": "ethereum", "accountNumber": "DE89370400440532013000",
                         "accountName": "MAX MUSTERMANN", "swiftCode": "DEUTDEFF500"}),
            broken: (crypto(Cngn, "ethereum"), eur(|b| b.swift_code = "DEUTDEFF50".into()), Some("rk_12"), "100"),
            refused: "swiftCode: must be a BIC (ISO 9362) of 8 or 11 characters: 4 letters (bank), \
                      2 letters (country), 2 letters or digits (location), optionally 3 letters or \
                      digits (branch), such as DEUTDEFF or DEUTDEFF500",
        },
        Cell {
            sent: (crypto(Usdt, "trc20"), canadian_bank().into(), Some("rk_13"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USDT", "toCurrency": "CAD", "rateKey": "rk_13",
                         "fromNetwork": "trc20", "accountNumber": "1234567", "accountName": "ALEX MARTIN",
                         "bankName": "Royal Bank of Canada", "transitNumber": "00012",
                         "institutionNumber": "003"}),
            broken: (crypto(Usdt, "trc20"), ca(|b| b.account_number = "123456".into()), Some("rk_13"), "100"),
            refused: "accountNumber: must be 7 to 12 digits (a Canadian bank account number), such as 1234567",
        },
        Cell {
            sent: (crypto(Usdc, "ethereum"), other_fiat(OtherFiatCurrency::Xaf).into(), Some("rk_14"), "100"),
            body: json!({"amount": "100", "fromCurrency": "USDC", "toCurrency": "XAF", "rateKey": "rk_14",
                         "fromNetwork": "ethereum", "accountName": "KOFI MENSAH"}),
            broken: (crypto(Usdc, "ethereum"), other_fiat(OtherFiatCurrency::Xaf).into(), Some("rk_14"), "0"),
            refused: "amount: must be greater than zero",
        },
    ]
}

/// The kind of pair and the family of a typed payout.
fn cell_of(payout: &Typed) -> (&'static str, &'static str) {
    let (source, destination, ..) = payout;
    let (from, to) = (source.currency(), destination.currency());
    let kind = match (from.is_crypto(), to.is_crypto()) {
        (false, false) if from == to => "same-currency fiat",
        (false, false) => "cross-currency fiat",
        (false, true) => "fiat to crypto",
        (true, true) => "crypto to crypto",
        (true, false) => "crypto to fiat",
    };
    let family = match destination {
        Destination::LocalBank(_) => "LocalBank",
        Destination::UsBank(_) => "UsBank",
        Destination::UkBank(_) => "UkBank",
        Destination::EurBank(_) => "EurBank",
        Destination::CanadianBank(_) => "CanadianBank",
        Destination::CryptoWallet(_) => "CryptoWallet",
        Destination::OtherFiat(_) => "OtherFiat",
    };
    (kind, family)
}

#[tokio::test]
async fn every_pair_kind_and_destination_family_is_sent_exactly_or_refused_before_sending() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let cells = cells();

    // Every kind of pair with every destination family it can reach: the
    // five fiat families and OtherFiat from fiat, another fiat currency and
    // crypto; a wallet from fiat and from crypto.
    let covered: BTreeSet<_> = cells.iter().map(|cell| cell_of(&cell.sent)).collect();
    let fiat_families = [
        "LocalBank",
        "UsBank",
        "UkBank",
        "EurBank",
        "CanadianBank",
        "OtherFiat",
    ];
    let mut possible: BTreeSet<_> = [
        "same-currency fiat",
        "cross-currency fiat",
        "crypto to fiat",
    ]
    .into_iter()
    .flat_map(|kind| fiat_families.map(|family| (kind, family)))
    .collect();
    possible.insert(("fiat to crypto", "CryptoWallet"));
    possible.insert(("crypto to crypto", "CryptoWallet"));
    assert_eq!(covered, possible);
    for cell in &cells {
        assert_eq!(cell_of(&cell.sent), cell_of(&cell.broken));
    }

    for cell in &cells {
        match client.payouts().create(&typed(&cell.broken)).await {
            Err(Error::Validation(violations)) => {
                assert_eq!(
                    violations.to_string(),
                    cell.refused,
                    "{:?}",
                    cell_of(&cell.broken)
                )
            }
            other => panic!("{:?}: {other:?}", cell_of(&cell.broken)),
        }
    }
    assert!(sent(&server).await.is_empty(), "a refused payout was sent");

    for cell in &cells {
        client.payouts().create(&typed(&cell.sent)).await.unwrap();
    }
    let bodies = sent(&server).await;
    assert_eq!(bodies.len(), cells.len());
    for (cell, body) in cells.iter().zip(bodies) {
        assert_eq!(
            without_session(body),
            cell.body,
            "{:?}",
            cell_of(&cell.sent)
        );
    }
}

#[tokio::test]
async fn a_new_destination_replaces_every_field_of_the_earlier_one() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    // A UK payout, then re-addressed to a Nigerian account: no sort code or
    // BIC of the UK bank may travel with it.
    let payout = PayoutRequest::pay(dec("100"), FiatCurrency::Ngn, uk_bank())
        .narration("Invoice 7")
        .recipient_name("ADAEZE OKAFOR")
        .destination(ngn_bank());
    assert_eq!(
        (payout.sort_code.as_deref(), payout.swift_code.as_deref()),
        (None, None)
    );
    // A wallet, then a bank: no address or network either; the source's
    // network stays.
    let from_wallet = PayoutRequest::pay(
        dec("100"),
        crypto(CryptoCurrency::Usdt, "tron"),
        wallet(CryptoCurrency::Usdc, "ethereum", EVM_ADDRESS),
    )
    .rate_key("rk_1")
    .destination(canadian_bank());
    client.payouts().create(&payout).await.unwrap();
    client.payouts().create(&from_wallet).await.unwrap();
    let bodies = sent(&server).await;
    assert_eq!(
        without_session(bodies[0].clone()),
        json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "NGN",
               "narration": "Invoice 7", "recipientName": "ADAEZE OKAFOR",
               "accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR",
               "bankName": "Guaranty Trust Bank", "bankCode": "058"})
    );
    assert_eq!(
        without_session(bodies[1].clone()),
        json!({"amount": "100", "fromCurrency": "USDT", "toCurrency": "CAD", "rateKey": "rk_1",
               "fromNetwork": "tron", "accountNumber": "1234567", "accountName": "ALEX MARTIN",
               "bankName": "Royal Bank of Canada", "transitNumber": "00012",
               "institutionNumber": "003"})
    );
}

#[tokio::test]
async fn a_malformed_typed_destination_is_refused_before_sending() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let payout = PayoutRequest::pay(
        dec("100"),
        FiatCurrency::Ngn,
        UkBank {
            account_number: "3192681".into(),
            sort_code: "12-34-5".into(),
            ..uk_bank()
        },
    )
    .rate_key("rk_1");
    assert_invalid(
        client.payouts().create(&payout).await,
        "accountNumber: must be an 8-digit UK account number, such as 31926819, or an IBAN; \
         sortCode: must be 6 digits, such as 12-34-56 (spaces and dashes are removed)",
    );
    assert!(sent(&server).await.is_empty());
}

#[tokio::test]
async fn a_session_id_is_generated_once_and_sent_unchanged_when_the_caller_repeats() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let first = PayoutRequest::pay(dec("5"), FiatCurrency::Usd, us_bank());
    let second = PayoutRequest::pay(dec("5"), FiatCurrency::Usd, us_bank());
    assert!(is_uuid_v4(&first.session_id), "{}", first.session_id);
    assert_ne!(first.session_id, second.session_id);
    // The caller's retry of the same request sends the same id.
    client.payouts().create(&first).await.unwrap();
    client.payouts().create(&first).await.unwrap();
    let ids: Vec<Value> = sent(&server)
        .await
        .into_iter()
        .map(|b| b["sessionId"].clone())
        .collect();
    assert_eq!(ids, [json!(first.session_id), json!(first.session_id)]);
    // A caller's own id replaces the generated one.
    let own =
        PayoutRequest::pay(dec("5"), FiatCurrency::Usd, us_bank()).with_session_id("invoice-2291");
    assert_eq!(own.session_id, "invoice-2291");
}

/// Resolves every name to 127.0.0.1: first to `refused` (a port nobody
/// listens on, so the connection is refused before any byte is sent), then
/// to `server`; counts the look-ups, one per connection attempt.
struct RefuseFirst {
    refused: SocketAddr,
    server: SocketAddr,
    lookups: Arc<AtomicUsize>,
}

impl Resolve for RefuseFirst {
    fn resolve(&self, _: Name) -> Resolving {
        let first = self.lookups.fetch_add(1, Ordering::SeqCst) == 0;
        let addr = if first { self.refused } else { self.server };
        Box::pin(async move { Ok(Box::new(std::iter::once(addr)) as Addrs) })
    }
}

#[tokio::test]
async fn the_sdks_own_retry_after_a_refused_connection_sends_the_same_session_id() {
    let server = MockServer::start().await;
    accept_payouts(&server).await;
    let lookups = Arc::new(AtomicUsize::new(0));
    let http = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(10))
        .dns_resolver(Arc::new(RefuseFirst {
            refused: SocketAddr::from(([127, 0, 0, 1], closed_port())),
            server: *server.address(),
            lookups: Arc::clone(&lookups),
        }))
        .build()
        .unwrap();
    // No port in the URL: the resolver's ports are used.
    let client = Client::builder()
        .api_key(KEY)
        .base_url("http://payouts.sandbox.test/v1")
        .http_client(http)
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let payout = PayoutRequest::pay(dec("25000"), FiatCurrency::Ngn, ngn_bank());

    let receipt = client.payouts().create(&payout).await.unwrap();

    // Two attempts: the refused one, and the SDK's retry that arrived.
    assert_eq!(lookups.load(Ordering::SeqCst), 2);
    assert_eq!(receipt.session_id, "echo");
    let bodies = sent(&server).await;
    assert_eq!(bodies.len(), 1);
    assert_eq!(bodies[0]["sessionId"], json!(payout.session_id));
    assert!(is_uuid_v4(&payout.session_id));
    assert_eq!(
        without_session(bodies[0].clone()),
        json!({"amount": "25000", "fromCurrency": "NGN", "toCurrency": "NGN",
               "accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR",
               "bankName": "Guaranty Trust Bank", "bankCode": "058"})
    );
}

fn quote(valid_until: SystemTime) -> Quote {
    Quote {
        amount: dec("500000"),
        rate: dec("0.00052"),
        rounded_rate: None,
        rate_key: "rk_quote".into(),
        from_currency: Currency::Ngn,
        to_currency: Currency::Gbp,
        fee: Some(dec("2500")),
        to_amount: Some(dec("260.00")),
        total_amount: Some(dec("502500")),
        expires_at: None,
        valid_until,
    }
}

fn fresh() -> SystemTime {
    SystemTime::now() + Duration::from_secs(60)
}

/// 2026-11-18T11:06:40Z, in the past.
fn stale() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000)
}

#[tokio::test]
async fn a_payout_from_a_quote_carries_its_key_amount_and_currencies() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let payout = PayoutRequest::from_quote(&quote(fresh()), uk_bank()).unwrap();
    client.payouts().create(&payout).await.unwrap();
    assert_eq!(
        without_session(sent(&server).await.remove(0)),
        json!({"amount": "500000", "fromCurrency": "NGN", "toCurrency": "GBP",
               "rateKey": "rk_quote", "accountNumber": "31926819", "accountName": "JANE SMITH",
               "bankName": "Barclays Bank", "sortCode": "200000", "swiftCode": "BARCGB22"})
    );
}

#[tokio::test]
async fn a_payout_from_a_crypto_quote_carries_the_source_network() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let usdt = |to: Currency| Quote {
        amount: dec("250"),
        from_currency: Currency::Usdt,
        to_currency: to,
        ..quote(fresh())
    };
    // Crypto to fiat, and crypto to crypto.
    let to_bank =
        PayoutRequest::from_crypto_quote(&usdt(Currency::Ngn), "tron", ngn_bank()).unwrap();
    let to_wallet = PayoutRequest::from_crypto_quote(
        &usdt(Currency::Usdc),
        "tron",
        wallet(
            CryptoCurrency::Usdc,
            "solana",
            "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
        ),
    )
    .unwrap();
    client.payouts().create(&to_bank).await.unwrap();
    client.payouts().create(&to_wallet).await.unwrap();
    let bodies = sent(&server).await;
    assert_eq!(
        without_session(bodies[0].clone()),
        json!({"amount": "250", "fromCurrency": "USDT", "toCurrency": "NGN", "rateKey": "rk_quote",
               "fromNetwork": "tron", "accountNumber": "0123456789",
               "accountName": "ADAEZE OKAFOR", "bankName": "Guaranty Trust Bank",
               "bankCode": "058"})
    );
    assert_eq!(
        without_session(bodies[1].clone()),
        json!({"amount": "250", "fromCurrency": "USDT", "toCurrency": "USDC", "rateKey": "rk_quote",
               "address": "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
               "fromNetwork": "tron", "toNetwork": "solana"})
    );

    // from_quote cannot know the network; from_crypto_quote has nothing to
    // name for a fiat source. Both say so with every reason at once.
    let violations = PayoutRequest::from_quote(&usdt(Currency::Ngn), eur_bank()).unwrap_err();
    assert_eq!(
        violations.iter().map(|v| v.rule).collect::<Vec<_>>(),
        [Rule::Mismatch, Rule::Required]
    );
    assert_eq!(
        violations.to_string(),
        "toCurrency: must be the quote's toCurrency (NGN); the destination is in EUR; \
         fromNetwork: is required when fromCurrency (USDT) is crypto and differs from toCurrency \
         (EUR): build the payout with PayoutRequest::from_crypto_quote, which takes the network \
         the USDT is on"
    );
    let violations =
        PayoutRequest::from_crypto_quote(&quote(fresh()), "tron", uk_bank()).unwrap_err();
    assert_eq!(violations[0].rule, Rule::Mismatch);
    assert_eq!(
        violations.to_string(),
        "fromNetwork: names the network of a crypto source, but the quote's fromCurrency (NGN) \
         is fiat: build the payout with PayoutRequest::from_quote"
    );
    assert_eq!(sent(&server).await.len(), 2);
}

#[tokio::test]
async fn an_expired_quote_is_refused_before_sending() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let stale = quote(stale());
    assert!(stale.is_expired());
    let payout = PayoutRequest::from_quote(&stale, uk_bank()).unwrap();
    let error = client.payouts().create(&payout).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the quote's rateKey rk_quote expired at 2026-11-18T11:06:40Z; get a new quote (nothing was sent)"
    );
    assert!(matches!(error, Error::QuoteExpired { ref rate_key, .. } if rate_key == "rk_quote"));
    assert!(sent(&server).await.is_empty());
}

#[tokio::test]
async fn a_verified_payout_is_judged_whole_before_any_request() {
    // Nothing is mounted: any request would be recorded (and answered 404).
    let (server, client) = setup().await;
    let ngn_quote = |valid_until| Quote {
        from_currency: Currency::Usd,
        to_currency: Currency::Ngn,
        amount: dec("100"),
        ..quote(valid_until)
    };
    // An expired quote: refused before resolve-bank is asked.
    let expired = PayoutRequest::from_quote(&ngn_quote(stale()), ngn_bank()).unwrap();
    match client
        .payouts()
        .create_verified(&expired)
        .await
        .unwrap_err()
    {
        Error::QuoteExpired {
            rate_key,
            expired_at,
        } => {
            assert_eq!(
                (rate_key.as_str(), expired_at.as_str()),
                ("rk_quote", "2026-11-18T11:06:40Z")
            )
        }
        other => panic!("{other:?}"),
    }
    // A payout breaking a rule, and one that cannot be verified.
    let malformed = PayoutRequest::from_quote(
        &ngn_quote(fresh()),
        LocalBank {
            account_number: "01234".into(),
            ..ngn_bank()
        },
    )
    .unwrap();
    assert!(matches!(
        client
            .payouts()
            .create_verified(&malformed)
            .await
            .unwrap_err(),
        Error::Validation(_)
    ));
    let unverifiable = PayoutRequest::pay(dec("10"), FiatCurrency::Usd, us_bank());
    assert!(matches!(
        client
            .payouts()
            .create_verified(&unverifiable)
            .await
            .unwrap_err(),
        Error::Validation(_)
    ));
    let requests = server.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 0, "{requests:?}");
}

#[tokio::test]
async fn a_quote_for_another_currency_is_refused() {
    let violations = PayoutRequest::from_quote(&quote(fresh()), eur_bank()).unwrap_err();
    assert_eq!(violations[0].rule, Rule::Mismatch);
    assert_eq!(
        violations.to_string(),
        "toCurrency: must be the quote's toCurrency (GBP); the destination is in EUR"
    );
}

/// Answers a quote with `expires_at` and, if given, a `Date` header.
async fn quote_with(expires_at: Option<&str>, date: Option<&str>) -> Quote {
    let (server, client) = setup().await;
    let mut data = json!({"rate": 1550.25, "rateKey": "rk_q", "fromCurrency": "USD",
                          "toCurrency": "NGN"});
    if let Some(at) = expires_at {
        data["expiresAt"] = json!(at);
    }
    let mut response = ResponseTemplate::new(200)
        .set_body_json(json!({"message": "ok", "data": data, "error": false}));
    if let Some(date) = date {
        response = response.insert_header("date", date);
    }
    Mock::given(method("GET"))
        .and(path_regex("^/v1/api/qoutes/"))
        .answers(&server, response)
        .await;
    client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("10")))
        .await
        .unwrap()
}

/// `at` to the whole second, and as RFC 3339.
fn rfc3339(at: SystemTime) -> (String, SystemTime) {
    let seconds = at.duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs();
    let whole = SystemTime::UNIX_EPOCH + Duration::from_secs(seconds);
    let text = time::OffsetDateTime::from(whole)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    (text, whole)
}

/// A quote from a server that sends no `Date` header (wiremock's server
/// always sends one): one exchange on 127.0.0.1, answered by hand.
async fn quote_without_date(expires_at: &str) -> Quote {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let body = json!({"message": "ok", "error": false,
                      "data": {"rate": 1550.25, "rateKey": "rk_q", "fromCurrency": "USD",
                               "toCurrency": "NGN", "expiresAt": expires_at}})
    .to_string();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut request = Vec::new();
        let mut buffer = [0u8; 1024];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            let read = stream.read(&mut buffer).unwrap();
            assert!(read > 0, "the request ended early");
            request.extend_from_slice(&buffer[..read]);
        }
        write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        String::from_utf8_lossy(&request).into_owned()
    });
    let client = Client::builder()
        .api_key(KEY)
        .base_url(format!("http://{address}/v1"))
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("10")))
        .await
        .unwrap();
    let request = server.join().unwrap();
    assert!(
        request.starts_with("GET /v1/api/qoutes/USD/NGN/10 "),
        "{request}"
    );
    quote
}

#[tokio::test]
async fn a_quotes_lifetime_is_measured_on_the_servers_clock() {
    // The server's clock is a year behind ours: its 90-second lifetime
    // still holds from receipt.
    let before = SystemTime::now();
    let quote = quote_with(
        Some("2025-11-01T12:01:30Z"),
        Some("Sat, 01 Nov 2025 12:00:00 GMT"),
    )
    .await;
    let after = SystemTime::now();
    assert_eq!(quote.amount, dec("10"));
    assert!(!quote.is_expired());
    assert!(quote.valid_until >= before + Duration::from_secs(90));
    assert!(quote.valid_until <= after + Duration::from_secs(90));

    // No expiresAt: the assumed lifetime.
    let before = SystemTime::now();
    let quote = quote_with(None, None).await;
    assert!(!quote.is_expired());
    assert!(quote.valid_until >= before + Quote::DEFAULT_LIFETIME);
    assert!(quote.valid_until <= SystemTime::now() + Quote::DEFAULT_LIFETIME);

    // No Date header, expiresAt in the future: read on the client's clock,
    // so the quote is good until that very instant.
    let (expires_at, expires) = rfc3339(SystemTime::now() + Duration::from_secs(120));
    let quote = quote_without_date(&expires_at).await;
    assert!(!quote.is_expired());
    assert_eq!(quote.valid_until, expires);
    // No Date header, expiresAt past on the client's clock: expired.
    let (expires_at, _) = rfc3339(SystemTime::now() - Duration::from_secs(1));
    let before = SystemTime::now();
    let quote = quote_without_date(&expires_at).await;
    assert!(quote.is_expired());
    assert!(quote.valid_until >= before && quote.valid_until <= SystemTime::now());
}

#[tokio::test]
async fn a_quote_that_arrives_expired_is_refused_from_the_start() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    // expiresAt at the server's own Date, or before it (the third: before
    // the real Date the mock server sends by itself): no lifetime left.
    for (expires_at, date) in [
        (
            "2025-11-01T12:00:00Z",
            Some("Sat, 01 Nov 2025 12:00:00 GMT"),
        ),
        (
            "2025-11-01T11:59:59Z",
            Some("Sat, 01 Nov 2025 12:00:00 GMT"),
        ),
        ("2020-01-01T00:00:00Z", None),
    ] {
        let before = SystemTime::now();
        let quote = quote_with(Some(expires_at), date).await;
        assert!(quote.is_expired(), "{expires_at} {date:?}");
        assert!(quote.valid_until >= before && quote.valid_until <= SystemTime::now());
        let quote = Quote {
            to_currency: Currency::Ngn,
            ..quote
        };
        let payout = PayoutRequest::from_quote(&quote, ngn_bank()).unwrap();
        assert!(matches!(
            client.payouts().create(&payout).await.unwrap_err(),
            Error::QuoteExpired { .. }
        ));
    }
    assert!(sent(&server).await.is_empty());
}
