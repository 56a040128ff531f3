//! Typed payout destinations, session ids and quotes carried into payouts:
//! what reaches the wire (exact JSON, normalised values), and what is
//! refused before anything is sent.

mod common;

use std::time::{Duration, SystemTime};

use common::{dec, setup};
use crossborder::{
    CanadianBank, CryptoCurrency, CryptoWallet, Currency, Destination, Error, EurBank, LocalBank,
    LocalBankCurrency, OtherFiatAccount, OtherFiatCurrency, PayoutRequest, Quote, QuoteRequest,
    Rule, UkBank, UsBank, DEFAULT_QUOTE_LIFETIME,
};
use serde_json::{json, Value};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn accept_payouts(server: &MockServer) {
    Mock::given(method("POST"))
        .and(path("/v1/api/payout"))
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

#[tokio::test]
async fn each_destination_family_sends_its_fields_normalised() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let wallet = |currency, network: &str| CryptoWallet {
        currency,
        address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into(),
        network: network.into(),
    };
    let table: Vec<(Currency, Destination, Option<&str>, Value)> = vec![
        (
            Currency::Ngn,
            LocalBank {
                currency: LocalBankCurrency::Ngn,
                account_number: "0123456789".into(),
                account_name: "ADAEZE OKAFOR".into(),
                bank_name: "Guaranty Trust Bank".into(),
                bank_code: "058".into(),
            }
            .into(),
            None,
            json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "NGN",
                   "accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR",
                   "bankName": "Guaranty Trust Bank", "bankCode": "058"}),
        ),
        (
            Currency::Usd,
            UsBank {
                account_number: "123456789".into(),
                account_name: "JOHN DOE".into(),
                bank_name: "JPMorgan Chase Bank".into(),
            }
            .into(),
            None,
            json!({"amount": "100", "fromCurrency": "USD", "toCurrency": "USD",
                   "accountNumber": "123456789", "accountName": "JOHN DOE",
                   "bankName": "JPMorgan Chase Bank"}),
        ),
        (
            Currency::Ngn,
            UkBank {
                account_number: "gb82 west 1234 5698 7654 32".into(),
                account_name: "JANE SMITH".into(),
                bank_name: "Barclays Bank".into(),
                sort_code: "12-34 56".into(),
                swift_code: "barcgb22".into(),
            }
            .into(),
            Some("rk_1"),
            json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "GBP", "rateKey": "rk_1",
                   "accountNumber": "GB82WEST12345698765432", "accountName": "JANE SMITH",
                   "bankName": "Barclays Bank", "sortCode": "123456", "swiftCode": "BARCGB22"}),
        ),
        (
            Currency::Ngn,
            EurBank {
                iban: "DE89 3704 0044 0532 0130 00".into(),
                account_name: "MAX MUSTERMANN".into(),
                swift_code: "DEUTDEFF".into(),
                bank_name: None,
            }
            .into(),
            Some("rk_2"),
            json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "EUR", "rateKey": "rk_2",
                   "accountNumber": "DE89370400440532013000", "accountName": "MAX MUSTERMANN",
                   "swiftCode": "DEUTDEFF"}),
        ),
        (
            Currency::Usd,
            CanadianBank {
                account_number: "1234567".into(),
                account_name: "ALEX MARTIN".into(),
                transit_number: "00012".into(),
                institution_number: "003".into(),
                bank_name: Some("Royal Bank of Canada".into()),
            }
            .into(),
            Some("rk_3"),
            json!({"amount": "100", "fromCurrency": "USD", "toCurrency": "CAD", "rateKey": "rk_3",
                   "accountNumber": "1234567", "accountName": "ALEX MARTIN",
                   "bankName": "Royal Bank of Canada", "transitNumber": "00012",
                   "institutionNumber": "003"}),
        ),
        (
            Currency::Usdt,
            wallet(CryptoCurrency::Usdt, "ethereum").into(),
            None,
            json!({"amount": "100", "fromCurrency": "USDT", "toCurrency": "USDT",
                   "address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "network": "ethereum"}),
        ),
        (
            Currency::Ngn,
            wallet(CryptoCurrency::Usdc, "base").into(),
            Some("rk_4"),
            json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "USDC", "rateKey": "rk_4",
                   "address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "toNetwork": "base"}),
        ),
        (
            Currency::Ghs,
            OtherFiatAccount {
                currency: OtherFiatCurrency::Ghs,
                account_number: None,
                account_name: Some("KOFI MENSAH".into()),
                bank_name: None,
                bank_code: None,
            }
            .into(),
            None,
            json!({"amount": "100", "fromCurrency": "GHS", "toCurrency": "GHS",
                   "accountName": "KOFI MENSAH"}),
        ),
    ];
    let count = table.len();
    for (from, destination, rate_key, _) in &table {
        let mut payout = PayoutRequest::pay(dec("100"), *from, destination.clone());
        if let Some(key) = rate_key {
            payout = payout.rate_key(*key);
        }
        client.payouts().create(&payout).await.unwrap();
    }
    let bodies = sent(&server).await;
    assert_eq!(bodies.len(), count);
    for ((_, _, _, expected), body) in table.into_iter().zip(bodies) {
        assert_eq!(without_session(body), expected);
    }
}

#[tokio::test]
async fn a_malformed_typed_destination_is_refused_before_sending() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let payout = PayoutRequest::pay(
        dec("100"),
        Currency::Ngn,
        UkBank {
            account_number: "3192681".into(),
            account_name: "JANE SMITH".into(),
            bank_name: "Barclays Bank".into(),
            sort_code: "12-34-5".into(),
            swift_code: "BARCGB22".into(),
        },
    )
    .rate_key("rk_1");
    match client.payouts().create(&payout).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "accountNumber: must be an 8-digit UK account number, such as 31926819, or an IBAN; \
             sortCode: must be 6 digits, such as 12-34-56 (spaces and dashes are removed)"
        ),
        other => panic!("{other:?}"),
    }
    assert!(sent(&server).await.is_empty());
}

#[tokio::test]
async fn a_session_id_is_generated_once_and_sent_unchanged_on_every_attempt() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let bank = UsBank {
        account_number: "123456789".into(),
        account_name: "JOHN DOE".into(),
        bank_name: "JPMorgan Chase Bank".into(),
    };
    let first = PayoutRequest::pay(dec("5"), Currency::Usd, bank.clone());
    let second = PayoutRequest::pay(dec("5"), Currency::Usd, bank.clone());
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
    let own = PayoutRequest::pay(dec("5"), Currency::Usd, bank).with_session_id("invoice-2291");
    assert_eq!(own.session_id, "invoice-2291");
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

fn uk_bank() -> UkBank {
    UkBank {
        account_number: "31926819".into(),
        account_name: "JANE SMITH".into(),
        bank_name: "Barclays Bank".into(),
        sort_code: "20-00-00".into(),
        swift_code: "BARCGB22".into(),
    }
}

#[tokio::test]
async fn a_payout_from_a_quote_carries_its_key_amount_and_currencies() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let fresh = quote(SystemTime::now() + Duration::from_secs(60));
    let payout = PayoutRequest::from_quote(&fresh, uk_bank()).unwrap();
    client.payouts().create(&payout).await.unwrap();
    assert_eq!(
        without_session(sent(&server).await.remove(0)),
        json!({"amount": "500000", "fromCurrency": "NGN", "toCurrency": "GBP",
               "rateKey": "rk_quote", "accountNumber": "31926819", "accountName": "JANE SMITH",
               "bankName": "Barclays Bank", "sortCode": "200000", "swiftCode": "BARCGB22"})
    );
}

#[tokio::test]
async fn an_expired_quote_is_refused_before_sending() {
    let (server, client) = setup().await;
    accept_payouts(&server).await;
    let stale = quote(SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000));
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
async fn a_quote_for_another_currency_is_refused() {
    let fresh = quote(SystemTime::now() + Duration::from_secs(60));
    let euro = EurBank {
        iban: "DE89370400440532013000".into(),
        account_name: "MAX MUSTERMANN".into(),
        swift_code: "DEUTDEFF".into(),
        bank_name: None,
    };
    let violations = PayoutRequest::from_quote(&fresh, euro).unwrap_err();
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
        .respond_with(response)
        .mount(&server)
        .await;
    client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("10")))
        .await
        .unwrap()
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
    assert!(quote.valid_until >= before + DEFAULT_QUOTE_LIFETIME);
    assert!(quote.valid_until <= SystemTime::now() + DEFAULT_QUOTE_LIFETIME);

    // An expiresAt that is past on every clock we know gives no lifetime:
    // the assumed one applies rather than refusing a quote just issued.
    let before = SystemTime::now();
    let quote = quote_with(Some("2020-01-01T00:00:00Z"), None).await;
    assert!(quote.valid_until >= before + DEFAULT_QUOTE_LIFETIME);
}
