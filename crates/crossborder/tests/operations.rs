//! Every operation: the request sent (method, path, key header, exact JSON
//! body) and the mapping of the response, with exact amounts.

mod common;

use std::time::Duration;

use common::{dec, setup, transaction_json, KEY};
use crossborder::{
    error::Rule,
    types::{
        Address, AmountText, BusinessDetails, BusinessStatus, BusinessType, CollectionRequest,
        CreateBusinessRequest, DocumentLink, DocumentType, Documents, IdType,
        MonthlyTransactionVolume, NatureOfBusiness, PayoutRequest, PersonDetails, PersonRequest,
        PersonRole, ProofOfAddress, ProofOfAddressType, QuoteRequest, Rail, ResolveAccountRequest,
        SimulateFundingRequest, SourceOfFund, TransactionStatus, TransactionType,
        UpdateBusinessRequest,
    },
    Currency, Error, WaitOptions,
};
use serde_json::{json, Value};
use wiremock::matchers::{body_json, header, method, path, query_param};
use wiremock::{Mock, Request, ResponseTemplate};

fn key_header() -> wiremock::matchers::HeaderExactMatcher {
    header("x-api-key", KEY)
}

fn raw_body(request: &Request) -> String {
    String::from_utf8(request.body.clone()).unwrap()
}

#[tokio::test]
async fn quote_with_rail() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/qoutes/USD/NGN/100.50"))
        .and(query_param("rail", "swift"))
        .and(key_header())
        .and(header("user-agent", crossborder::ClientBuilder::USER_AGENT))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            r#"{"message":"Quote retrieved successfully","data":{"rate":1530.25,"roundedRate":1530.25,
               "rateKey":"rk_9f2c4e1a7b3d4c5e","fromCurrency":"USD","toCurrency":"NGN","fee":1.5,
               "toAmount":153787.625,"totalAmount":102.00,"expiresAt":"2026-11-21T12:05:00Z","extra":1},"error":false}"#,
            "application/json",
        ))
        .expect(1)
        .mount(&server)
        .await;

    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("100.50")).rail(Rail::Swift))
        .await
        .unwrap();
    // Only headers the spec or HTTP defines: not the generator's
    // `api-version` (ASSUMPTIONS A30 puts the version in the path).
    let received = server.received_requests().await.unwrap();
    let mut names: Vec<&str> = received[0].headers.keys().map(|n| n.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["accept", "host", "user-agent", "x-api-key"]);
    assert_eq!(quote.rate, dec("1530.25"));
    assert_eq!(quote.rounded_rate, Some(dec("1530.25")));
    assert_eq!(quote.rate_key, "rk_9f2c4e1a7b3d4c5e");
    assert_eq!(quote.from_currency, Currency::Usd);
    assert_eq!(quote.to_currency, Currency::Ngn);
    assert_eq!(quote.fee, Some(dec("1.5")));
    assert_eq!(quote.to_amount, Some(dec("153787.625")));
    assert_eq!(quote.total_amount.unwrap().to_string(), "102.00");
    assert_eq!(quote.expires_at.as_deref(), Some("2026-11-21T12:05:00Z"));
}

#[tokio::test]
async fn quote_without_rail_sends_no_query() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/qoutes/NGN/USDT/250000"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "message": "ok",
            "data": {"rate": 0.000625, "rateKey": "rk_1", "fromCurrency": "NGN", "toCurrency": "USDT"}
        })))
        .expect(1)
        .mount(&server)
        .await;
    let quote = client
        .quotes()
        .get(QuoteRequest::new(
            Currency::Ngn,
            Currency::Usdt,
            dec("250000"),
        ))
        .await
        .unwrap();
    assert_eq!(quote.rate, dec("0.000625"));
    assert_eq!(quote.fee, None);
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests[0].url.query(), None);
}

#[tokio::test]
async fn invalid_quote_amounts_are_refused_without_sending() {
    let (server, client) = setup().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(500))
        .expect(0)
        .mount(&server)
        .await;
    for (request, message) in [
        (
            QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("0")),
            "must be greater than zero",
        ),
        (
            QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("-5")),
            "must be greater than zero",
        ),
        (
            QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("1.001")),
            "has more decimal places than USD allows (2)",
        ),
        (
            QuoteRequest::new(Currency::Ugx, Currency::Ngn, dec("1.5")),
            "has more decimal places than UGX allows (0)",
        ),
    ] {
        let error = client.quotes().get(request).await.unwrap_err();
        let violations = error.violations().unwrap_or_else(|| panic!("{error:?}"));
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].field, "amount");
        assert_eq!(violations[0].message, message);
    }
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn create_collection() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/initiate-payment"))
        .and(key_header())
        .and(body_json(json!({
            "amount": 50000.10,
            "fromCurrency": "NGN",
            "toCurrency": "NGN",
            "paymentReference": "order-10045"
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;

    let request =
        CollectionRequest::new("order-10045", dec("50000.10"), Currency::Ngn, Currency::Ngn);
    let transaction = client.collections().create(&request).await.unwrap();
    assert_eq!(transaction.status, TransactionStatus::Pending);
    assert_eq!(transaction.pay_reference.as_deref(), Some("PAY-7KQ2M9XD"));
    assert_eq!(transaction.payment_reference, "order-10045");
    assert_eq!(transaction.kind, Some(TransactionType::Collection));
    assert_eq!(transaction.amount, dec("50000"));
    assert_eq!(transaction.paid_amount, Some(dec("20000.5")));
    assert_eq!(transaction.remaining_amount(), Some(dec("29999.5")));
    let instruction = &transaction.payment_instructions[0];
    assert_eq!(
        instruction.amount_to_transfer,
        Some(AmountText::new("50000.10"))
    );
    assert_eq!(
        instruction
            .amount_to_transfer
            .as_ref()
            .map(AmountText::decimal),
        Some(Ok(dec("50000.10")))
    );
    assert_eq!(instruction.account_number.as_deref(), Some("9930001234"));
    assert_eq!(
        instruction.valid_until.as_deref(),
        Some("2026-11-22T12:00:00Z")
    );

    // The amount is written with its exact digits.
    let requests = server.received_requests().await.unwrap();
    assert!(
        raw_body(&requests[0]).contains(r#""amount":50000.10"#),
        "{}",
        raw_body(&requests[0])
    );
}

#[tokio::test]
async fn converting_collection_needs_a_rate_key() {
    let (server, client) = setup().await;
    let request = CollectionRequest::new("", dec("0"), Currency::Usd, Currency::Ngn);
    let error = client.collections().create(&request).await.unwrap_err();
    let violations = error.violations().unwrap();
    assert_eq!(
        violations.fields().collect::<Vec<_>>(),
        ["amount", "paymentReference", "rateKey"]
    );
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn get_transaction() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .and(key_header())
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("COMPLETED")))
        .expect(1)
        .mount(&server)
        .await;
    let transaction = client.collections().get("order-10045").await.unwrap();
    assert_eq!(transaction.status, TransactionStatus::Completed);
    assert!(transaction.status.is_terminal());
}

#[tokio::test]
async fn unknown_status_is_kept() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("ON_HOLD")))
        .mount(&server)
        .await;
    let transaction = client.collections().get("order-10045").await.unwrap();
    assert_eq!(
        transaction.status,
        TransactionStatus::Unknown("ON_HOLD".into())
    );
    assert!(!transaction.status.is_terminal());
}

#[tokio::test]
async fn wait_until_settled_polls_until_terminal() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("PENDING")))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("COMPLETED")))
        .with_priority(2)
        .mount(&server)
        .await;
    let options = WaitOptions::default()
        .timeout(Duration::from_secs(5))
        .initial_interval(Duration::from_millis(1))
        .max_interval(Duration::from_millis(5));
    let settled = client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
        .unwrap();
    assert_eq!(settled.status, TransactionStatus::Completed);
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
}

#[tokio::test]
async fn wait_until_settled_times_out_with_the_last_state() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("PARTIALLY_PAID")))
        .mount(&server)
        .await;
    // Long enough for several polls even on a loaded machine (a first
    // request slower than the whole deadline would leave only one).
    let options = WaitOptions::default()
        .timeout(Duration::from_millis(500))
        .initial_interval(Duration::from_millis(2))
        .max_interval(Duration::from_millis(5));
    let error = client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
        .unwrap_err();
    match error {
        Error::WaitTimeout { last } => {
            assert_eq!(last.status, TransactionStatus::PartiallyPaid);
            assert_eq!(last.paid_amount, Some(dec("20000.5")));
        }
        other => panic!("{other:?}"),
    }
    assert!(server.received_requests().await.unwrap().len() >= 2);
}

async fn pending_then_completed(server: &wiremock::MockServer) {
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("PENDING")))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("COMPLETED")))
        .with_priority(2)
        .mount(server)
        .await;
}

#[tokio::test]
async fn wait_until_settled_with_an_unbounded_timeout_does_not_panic() {
    let (server, client) = setup().await;
    pending_then_completed(&server).await;
    let options = WaitOptions::default()
        .timeout(Duration::MAX)
        .initial_interval(Duration::from_millis(1));
    let settled = client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
        .unwrap();
    assert_eq!(settled.status, TransactionStatus::Completed);
}

#[tokio::test]
async fn wait_until_settled_with_zero_intervals_does_not_busy_loop() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("PENDING")))
        .mount(&server)
        .await;
    let options = WaitOptions::default()
        .timeout(Duration::from_millis(100))
        .initial_interval(Duration::ZERO)
        .max_interval(Duration::ZERO);
    let error = client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
        .unwrap_err();
    assert!(matches!(error, Error::WaitTimeout { .. }), "{error:?}");
    // At least 10 ms between reads: about 100 / 10 + 1 reads, not thousands.
    let reads = server.received_requests().await.unwrap().len();
    assert!((2..=15).contains(&reads), "{reads} reads");
}

#[tokio::test]
async fn wait_until_settled_polls_through_a_transient_error() {
    let server = wiremock::MockServer::start().await;
    let client = common::client_for(&server, KEY, crossborder::RetryPolicy::none());
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(500).set_body_raw("<h1>oops</h1>", "text/html"))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    pending_then_completed(&server).await;
    let options = WaitOptions::default()
        .timeout(Duration::from_secs(5))
        .initial_interval(Duration::from_millis(1));
    let settled = client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
        .unwrap();
    assert_eq!(settled.status, TransactionStatus::Completed);
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
}

#[tokio::test]
async fn wait_until_settled_keeps_the_last_state_over_later_errors() {
    let server = wiremock::MockServer::start().await;
    let client = common::client_for(&server, KEY, crossborder::RetryPolicy::none());
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("PARTIALLY_PAID")))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(503))
        .with_priority(2)
        .mount(&server)
        .await;
    let options = WaitOptions::default()
        .timeout(Duration::from_millis(60))
        .initial_interval(Duration::from_millis(10));
    match client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
        .unwrap_err()
    {
        Error::WaitTimeout { last } => assert_eq!(last.status, TransactionStatus::PartiallyPaid),
        other => panic!("{other:?}"),
    }
    assert!(server.received_requests().await.unwrap().len() >= 3);
}

#[tokio::test]
async fn wait_until_settled_returns_the_last_error_when_nothing_was_read() {
    let server = wiremock::MockServer::start().await;
    let client = common::client_for(&server, KEY, crossborder::RetryPolicy::none());
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let options = WaitOptions::default()
        .timeout(Duration::from_millis(60))
        .initial_interval(Duration::from_millis(10));
    let error = client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(503), "{error:?}");
    assert!(server.received_requests().await.unwrap().len() >= 3);
}

#[tokio::test]
async fn wait_until_settled_stops_at_once_on_a_lasting_error() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(404).set_body_json(common::error_body(
            404,
            "Transaction not found: order-10045",
            "/v1/api/transaction/order-10045",
        )))
        .expect(1)
        .mount(&server)
        .await;
    let error = client
        .collections()
        .wait_until_settled("order-10045", WaitOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Api { status: 404, .. }), "{error:?}");
}

#[tokio::test]
async fn wallet_balance() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/balance/CNGN"))
        .and(key_header())
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            r#"{"message":"Balance retrieved successfully","data":{"balance":1250000.000001},"error":false}"#,
            "application/json",
        ))
        .expect(1)
        .mount(&server)
        .await;
    let balance = client.wallet().balance(Currency::Cngn).await.unwrap();
    assert_eq!(balance.currency, Currency::Cngn);
    assert_eq!(balance.amount, dec("1250000.000001"));
    assert_eq!(balance.to_string(), "1250000.000001 CNGN");
}

#[tokio::test]
async fn bank_list_and_resolve() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/bank-list/USD/NGN"))
        .and(key_header())
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "message": "Banks retrieved successfully",
            "data": [{"name": "Access Bank", "code": "044"}, {"name": "Guaranty Trust Bank", "code": "058"}]
        })))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/api/resolve-bank"))
        .and(key_header())
        .and(body_json(json!({
            "accountNumber": "0123456789",
            "bankCode": "058",
            "fromCurrency": "USD",
            "toCurrency": "NGN"
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "message": "Account resolved successfully",
            "data": {"bankCode": "058", "accountName": "ADAEZE OKAFOR", "accountNumber": "0123456789"},
            "error": false
        })))
        .expect(1)
        .mount(&server)
        .await;

    let banks = client
        .banks()
        .list(Currency::Usd, Currency::Ngn)
        .await
        .unwrap();
    assert_eq!(banks.len(), 2);
    assert_eq!(
        (banks[1].name.as_str(), banks[1].code.as_str()),
        ("Guaranty Trust Bank", "058")
    );

    let account = client
        .banks()
        .resolve(&ResolveAccountRequest::new(
            "0123456789",
            "058",
            Currency::Usd,
            Currency::Ngn,
        ))
        .await
        .unwrap();
    assert_eq!(account.account_name, "ADAEZE OKAFOR");
    assert_eq!(account.bank_code, "058");
    assert_eq!(account.account_number, "0123456789");
}

/// The resolve-bank rules are core's (the sandbox's alone before), so a
/// malformed request never leaves the client.
#[tokio::test]
async fn malformed_resolve_is_not_sent() {
    let (server, client) = setup().await;
    let error = client
        .banks()
        .resolve(&ResolveAccountRequest::new(
            "0123-4",
            " ",
            Currency::Usd,
            Currency::Ngn,
        ))
        .await
        .unwrap_err();
    assert_eq!(
        error.violations().unwrap().to_string(),
        "accountNumber: must be 6 to 34 letters or digits; bankCode: is required"
    );
    assert!(server.received_requests().await.unwrap().is_empty());
}

fn example_payout() -> PayoutRequest {
    PayoutRequest::new(
        "payout-2026-11-21-0001",
        dec("100.00"),
        Currency::Usd,
        Currency::Ngn,
    )
    .narration("Invoice 2291")
    .rate_key("rk_9f2c4e1a7b3d4c5e")
    .account_number("0123456789")
    .account_name("ADAEZE OKAFOR")
    .bank_name("Guaranty Trust Bank")
    .bank_code("058")
}

#[tokio::test]
async fn create_and_track_a_payout() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/payout"))
        .and(key_header())
        .and(body_json(json!({
            "amount": "100.00",
            "fromCurrency": "USD",
            "toCurrency": "NGN",
            "narration": "Invoice 2291",
            "sessionId": "payout-2026-11-21-0001",
            "rateKey": "rk_9f2c4e1a7b3d4c5e",
            "accountNumber": "0123456789",
            "accountName": "ADAEZE OKAFOR",
            "bankName": "Guaranty Trust Bank",
            "bankCode": "058"
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "message": "Payout initiated successfully",
            "sessionId": "payout-2026-11-21-0001"
        })))
        .expect(1)
        .mount(&server)
        .await;
    let mut payout_state = transaction_json("PROCESSING");
    payout_state["data"]["type"] = json!("PAYOUT");
    payout_state["data"]["paymentReference"] = json!("payout-2026-11-21-0001");
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/payout-2026-11-21-0001"))
        .and(key_header())
        .respond_with(ResponseTemplate::new(200).set_body_json(payout_state))
        .expect(1)
        .mount(&server)
        .await;

    let receipt = client.payouts().create(&example_payout()).await.unwrap();
    assert_eq!(receipt.session_id, "payout-2026-11-21-0001");
    assert_eq!(receipt.message, "Payout initiated successfully");
    let state = client.payouts().get(&receipt.session_id).await.unwrap();
    assert_eq!(state.status, TransactionStatus::Processing);
    assert_eq!(state.kind, Some(TransactionType::Payout));
}

#[tokio::test]
async fn payouts_get_on_a_collection_is_not_found() {
    let (server, client) = setup().await;
    // transaction_json is a collection (`type: COLLECTION`).
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-10045"))
        .respond_with(ResponseTemplate::new(200).set_body_json(transaction_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;
    let error = client.payouts().get("order-10045").await.unwrap_err();
    match &error {
        Error::Api {
            status,
            message,
            body,
            ..
        } => {
            assert_eq!(*status, 404);
            assert_eq!(
                message,
                "Payout not found: order-10045 (this reference is a collection)"
            );
            assert_eq!(body, "");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(error.status(), Some(404));
}

#[tokio::test]
async fn payouts_get_without_a_type_returns_the_transaction() {
    let (server, client) = setup().await;
    let mut untyped = transaction_json("PROCESSING");
    untyped["data"].as_object_mut().unwrap().remove("type");
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/payout-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(untyped))
        .expect(1)
        .mount(&server)
        .await;
    let state = client.payouts().get("payout-1").await.unwrap();
    assert_eq!(state.kind, None);
    assert_eq!(state.status, TransactionStatus::Processing);
}

#[tokio::test]
async fn invalid_payout_lists_every_violation_and_sends_nothing() {
    let (server, client) = setup().await;
    let payout = PayoutRequest::new("", dec("10.001"), Currency::Usd, Currency::Gbp)
        .narration("x".repeat(141));
    let error = client.payouts().create(&payout).await.unwrap_err();
    let violations = error.violations().expect("a validation error").clone();
    let fields: Vec<&str> = violations.iter().map(|v| v.field.as_ref()).collect();
    for expected in [
        "amount",
        "narration",
        "sessionId",
        "rateKey",
        "accountNumber",
        "accountName",
        "bankName",
        "sortCode",
        "swiftCode",
    ] {
        assert!(
            fields.contains(&expected),
            "{expected} missing from {fields:?}"
        );
    }
    assert!(violations.iter().all(|v| !v.message.is_empty()));
    assert!(error.to_string().starts_with("invalid request: "));
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn upload_document_is_multipart() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/upload-document"))
        .and(key_header())
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "message": "Document uploaded successfully",
            "data": {"link": "https://files.crossborder.invalid/kyb/doc_5f1c2a.pdf"},
            "error": false
        })))
        .expect(1)
        .mount(&server)
        .await;
    let pdf = b"%PDF-1.7\nhello\n%%EOF".to_vec();
    let document = client
        .businesses()
        .upload_document(pdf, "cac.pdf")
        .await
        .unwrap();
    assert_eq!(
        document.link,
        "https://files.crossborder.invalid/kyb/doc_5f1c2a.pdf"
    );
    assert_eq!(
        document.reference("cac-cert"),
        DocumentLink::new(
            "https://files.crossborder.invalid/kyb/doc_5f1c2a.pdf",
            "cac-cert"
        )
    );

    let requests = server.received_requests().await.unwrap();
    let content_type = requests[0].headers["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("multipart/form-data; boundary="),
        "{content_type}"
    );
    let body = String::from_utf8_lossy(&requests[0].body);
    assert!(
        body.contains(r#"name="file"; filename="cac.pdf""#),
        "{body}"
    );
    assert!(body.contains("Content-Type: application/pdf"), "{body}");
    assert!(body.contains("%PDF-1.7\nhello\n%%EOF"), "{body}");
}

/// ASSUMPTIONS A16: the upload's answer may carry the link as `data.link`,
/// as `data` itself, or as a top-level `link`.
#[tokio::test]
async fn upload_reads_every_answer_shape() {
    let link = "https://files.crossborder.invalid/kyb/doc_9a.pdf";
    for answer in [
        json!({"message": "ok", "data": {"link": link}}),
        json!({"message": "ok", "data": link}),
        json!({"link": link}),
    ] {
        let (server, client) = setup().await;
        Mock::given(method("POST"))
            .and(path("/v1/api/upload-document"))
            .respond_with(ResponseTemplate::new(200).set_body_json(&answer))
            .expect(1)
            .mount(&server)
            .await;
        let document = client
            .businesses()
            .upload_document(b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
            .await
            .unwrap();
        assert_eq!(document.link, link, "{answer}");
    }
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/upload-document"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"message": "ok"})))
        .mount(&server)
        .await;
    let error = client
        .businesses()
        .upload_document(b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the upload answer has no link (expected data.link, data or link)"),
        "{error}"
    );
}

#[tokio::test]
async fn upload_refuses_other_file_types_without_sending() {
    let (server, client) = setup().await;
    let error = client
        .businesses()
        .upload_document(b"GIF89a....".to_vec(), "logo.gif")
        .await
        .unwrap_err();
    assert_eq!(
        error.violations().unwrap().to_string(),
        "file: Unsupported file type: only JPEG, PNG and PDF are accepted"
    );
    assert!(server.received_requests().await.unwrap().is_empty());
}

fn lagos_address() -> Address {
    Address {
        house_number: "12".into(),
        street: "Admiralty Way".into(),
        city: "Lekki".into(),
        state: "Lagos".into(),
        zip_code: "106104".into(),
        subdivision: None,
    }
}

fn example_business() -> CreateBusinessRequest {
    let file = |name: &str| format!("https://files.crossborder.invalid/kyb/{name}.pdf");
    let mut documents = Documents::new();
    documents.insert(
        "cac_document".into(),
        DocumentLink::new(file("cac"), "cac-cert"),
    );
    documents.insert(
        "bank_statement".into(),
        DocumentLink::new(file("statement"), "statement-6m"),
    );
    documents.insert(
        "application_letter".into(),
        DocumentLink::new(file("letter"), "letter"),
    );
    documents.insert(
        "cac_status_report".into(),
        DocumentLink::new(file("status"), "status-report"),
    );
    CreateBusinessRequest {
        name: "Lagos Trading Ltd".into(),
        business_type: BusinessType::Llc,
        registration_number: "RC1234567".into(),
        email: "compliance@lagostrading.ng".into(),
        phone_number: "+2348012345678".into(),
        nature_of_business: NatureOfBusiness {
            nature: "Wholesale of consumer electronics".into(),
            code: "4652".into(),
        },
        business_address: lagos_address(),
        proof_of_address: ProofOfAddress {
            url: "https://files.crossborder.invalid/kyb/utility.pdf".into(),
            key: "utility-2026-10".into(),
            kind: ProofOfAddressType::UtilityBill,
        },
        documents,
        details: BusinessDetails {
            business_description: Some("Imports and distributes consumer electronics.".into()),
            monthly_transaction_volume: Some(MonthlyTransactionVolume {
                currency: Currency::Usd,
                amount: dec("250000"),
            }),
            has_website: Some(true),
            business_website: Some("https://lagostrading.ng".into()),
            tin: Some("12345678-0001".into()),
            ..BusinessDetails::default()
        },
    }
}

fn business_json(status: &str) -> Value {
    json!({
        "message": "Business created successfully",
        "data": {
            "id": "biz_3M8QK2",
            "name": "Lagos Trading Ltd",
            "businessType": "LLC",
            "registrationNumber": "RC1234567",
            "country": "NG",
            "status": status,
            "rejectionReason": if status == "REJECTED" { json!("The bank statement covers fewer than six months.") } else { Value::Null },
            "directorCount": 1,
            "uboCount": 1,
            "fieldStatuses": {"businessAddress": "PENDING", "documents": "REJECTED", "website": "IN_REVIEW"},
            "createdAt": "2026-11-21T12:00:00Z",
            "updatedAt": "2026-11-21T12:30:00Z"
        },
        "error": false
    })
}

#[tokio::test]
async fn create_business_sends_the_documented_body() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/business"))
        .and(key_header())
        .and(body_json(json!({
            "name": "Lagos Trading Ltd",
            "businessType": "LLC",
            "registrationNumber": "RC1234567",
            "email": "compliance@lagostrading.ng",
            "phoneNumber": "+2348012345678",
            "natureOfBusiness": {"nature": "Wholesale of consumer electronics", "code": "4652"},
            "businessAddress": {"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki", "state": "Lagos", "zipCode": "106104"},
            "proofOfAddress": {"url": "https://files.crossborder.invalid/kyb/utility.pdf", "key": "utility-2026-10", "type": "Utility bill"},
            "documents": {
                "cac_document": {"url": "https://files.crossborder.invalid/kyb/cac.pdf", "key": "cac-cert"},
                "bank_statement": {"url": "https://files.crossborder.invalid/kyb/statement.pdf", "key": "statement-6m"},
                // Not an alias the spec names: sent as the type's name,
                // which the service's uppercased fallback matches.
                "APPLICATION_LETTER": {"url": "https://files.crossborder.invalid/kyb/letter.pdf", "key": "letter"},
                "cac_status_report": {"url": "https://files.crossborder.invalid/kyb/status.pdf", "key": "status-report"}
            },
            "businessDescription": "Imports and distributes consumer electronics.",
            "monthlyTransactionVolume": {"currency": "USD", "amount": "250000"},
            "hasWebsite": true,
            "businessWebsite": "https://lagostrading.ng",
            "TIN": "12345678-0001",
            "tin": "12345678-0001"
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;
    let business = client
        .businesses()
        .create(&example_business())
        .await
        .unwrap();
    assert_eq!(business.id, "biz_3M8QK2");
    assert_eq!(business.status, BusinessStatus::Pending);
    assert_eq!(business.business_type, Some(BusinessType::Llc));
    assert_eq!(business.rejection_reason, None);
    assert_eq!(
        business.field_statuses["documents"],
        BusinessStatus::Rejected
    );
    assert_eq!(
        business.field_statuses["website"],
        BusinessStatus::Unknown("IN_REVIEW".into())
    );
}

/// Keys written loosely are sent as the service knows them (ASSUMPTIONS
/// B10): the spec's alias for the type wherever the spec names one
/// (`incorporation_certificate` as `cac_document`, `bn1` as `bn_form_1`,
/// `form_2` as `cac_form_2`, `status_report` as `cac_status_report`), the
/// type's name otherwise; `document_keys()` shows each mapping, and it is
/// exactly what goes out.
#[tokio::test]
async fn document_keys_are_sent_canonically() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/business"))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;
    let mut request = example_business();
    request.documents.clear();
    for (key, id) in [
        (" Bank-Statement ", "statement"),
        ("incorporation_certificate", "certificate"),
        ("bn1", "bn1"),
        ("form_2", "form-2"),
        ("status_report", "status"),
        ("application_letter", "letter"),
        ("memart", "memart"),
    ] {
        request.documents.insert(
            key.into(),
            DocumentLink::new(
                format!("https://files.crossborder.invalid/kyb/{id}.pdf"),
                id,
            ),
        );
    }
    let mappings: Vec<(String, Option<String>, Option<DocumentType>)> = request
        .document_keys()
        .into_iter()
        .map(|m| (m.given, m.sent, m.document_type))
        .collect();
    let expected = [
        (
            " Bank-Statement ",
            "bank_statement",
            DocumentType::BankStatement,
        ),
        (
            "application_letter",
            "APPLICATION_LETTER",
            DocumentType::ApplicationLetter,
        ),
        ("bn1", "bn_form_1", DocumentType::BnForm1),
        ("form_2", "cac_form_2", DocumentType::CacForm2),
        (
            "incorporation_certificate",
            "cac_document",
            DocumentType::CertificateOfIncorporation,
        ),
        (
            "memart",
            "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION",
            DocumentType::MemorandumAndArticles,
        ),
        (
            "status_report",
            "cac_status_report",
            DocumentType::CacStatusReport,
        ),
    ]
    .map(|(given, sent, document)| (given.to_owned(), Some(sent.to_owned()), Some(document)));
    assert_eq!(mappings, expected);
    client.businesses().create(&request).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    let mut keys: Vec<&str> = body["documents"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "APPLICATION_LETTER",
            "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION",
            "bank_statement",
            "bn_form_1",
            "cac_document",
            "cac_form_2",
            "cac_status_report",
        ]
    );
    assert_eq!(
        body["documents"]["bn_form_1"],
        json!({"url": "https://files.crossborder.invalid/kyb/bn1.pdf", "key": "bn1"})
    );
}

/// A status the SDK does not know is never taken for a decision.
#[tokio::test]
async fn wait_for_decision_waits_through_unknown_statuses() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/business/biz_3M8QK2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("IN_REVIEW")))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/api/business/biz_3M8QK2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("APPROVED")))
        .with_priority(2)
        .mount(&server)
        .await;
    let options = WaitOptions::default()
        .timeout(std::time::Duration::from_secs(5))
        .initial_interval(std::time::Duration::from_millis(10));
    let business = client
        .businesses()
        .wait_for_decision("biz_3M8QK2", options)
        .await
        .unwrap();
    assert_eq!(business.status, BusinessStatus::Approved);
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
}

#[tokio::test]
async fn invalid_business_is_not_sent() {
    let (server, client) = setup().await;
    let mut request = example_business();
    request.email = "not-an-email".into();
    request.documents.remove("bank_statement");
    request.documents.insert(
        "selfie".into(),
        DocumentLink::new("https://x.invalid/s.png", "s"),
    );
    let error = client.businesses().create(&request).await.unwrap_err();
    let violations = error.violations().unwrap();
    let fields: Vec<&str> = violations.fields().collect();
    assert!(fields.contains(&"email"), "{fields:?}");
    assert!(fields.contains(&"documents.selfie"), "{fields:?}");
    assert!(fields.contains(&"documents"), "{fields:?}");
    assert!(server.received_requests().await.unwrap().is_empty());
}

/// The rules of `monthlyTransactionVolume` and `sourceOfFund` are core's
/// (they were the sandbox's alone), so the SDK refuses before sending, on
/// create and on update alike.
#[tokio::test]
async fn volume_and_source_of_fund_rules_apply_before_sending() {
    let (server, client) = setup().await;
    let mut request = example_business();
    request.details.monthly_transaction_volume = Some(MonthlyTransactionVolume {
        currency: Currency::Ngn,
        amount: dec("-5"),
    });
    request.details.source_of_fund = Some(SourceOfFund {
        url: Some("https://files.crossborder.invalid/kyb/sof.pdf".into()),
        kind: " ".into(),
        name: None,
    });
    let expected = [
        "monthlyTransactionVolume.amount: must be a decimal number such as 1500.50",
        "sourceOfFund.type: is required",
    ];
    let error = client.businesses().create(&request).await.unwrap_err();
    let messages: Vec<String> = error
        .violations()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(messages, expected);

    let changes = UpdateBusinessRequest {
        details: request.details.clone(),
        ..UpdateBusinessRequest::default()
    };
    let error = client
        .businesses()
        .update("biz_3M8QK2", &changes)
        .await
        .unwrap_err();
    let messages: Vec<String> = error
        .violations()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(messages, expected);
    assert!(server.received_requests().await.unwrap().is_empty());
}

fn example_person() -> PersonRequest {
    PersonRequest {
        first_name: "Adaeze".into(),
        last_name: "Okafor".into(),
        date_of_birth: "1985-04-12".into(),
        nationality: "NG".into(),
        phone_number: "+2348031234567".into(),
        id_number: "A12345678".into(),
        id_type: IdType::CurrentPassport,
        id_document_url: "https://files.crossborder.invalid/kyb/passport.pdf".into(),
        address: Address {
            house_number: "7".into(),
            street: "Bourdillon Road".into(),
            city: "Ikoyi".into(),
            state: "Lagos".into(),
            zip_code: "101233".into(),
            subdivision: None,
        },
        document: DocumentLink::new(
            "https://files.crossborder.invalid/kyb/director-utility.pdf",
            "director-utility",
        ),
        details: PersonDetails {
            email: Some("adaeze@lagostrading.ng".into()),
            job_title: Some("Managing Director".into()),
            ..PersonDetails::default()
        },
    }
}

fn person_body() -> Value {
    json!({
        "firstName": "Adaeze",
        "lastName": "Okafor",
        "dateOfBirth": "1985-04-12",
        "nationality": "NG",
        "phoneNumber": "+2348031234567",
        "idNumber": "A12345678",
        "idType": "currentPassport",
        "idDocumentUrl": "https://files.crossborder.invalid/kyb/passport.pdf",
        "address": {"houseNumber": "7", "street": "Bourdillon Road", "city": "Ikoyi", "state": "Lagos", "zipCode": "101233"},
        "document": {"url": "https://files.crossborder.invalid/kyb/director-utility.pdf", "key": "director-utility"},
        "email": "adaeze@lagostrading.ng",
        "jobTitle": "Managing Director"
    })
}

#[tokio::test]
async fn add_director_and_ubo() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/business/biz_3M8QK2/director"))
        .and(key_header())
        .and(body_json(person_body()))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "message": "Director added successfully",
            "data": {"id": "per_8XK2P1", "businessId": "biz_3M8QK2", "role": "DIRECTOR",
                     "firstName": "Adaeze", "lastName": "Okafor", "businessStatus": "PENDING", "submitted": false},
            "error": false
        })))
        .expect(1)
        .mount(&server)
        .await;
    let mut ubo_body = person_body();
    ubo_body["ownershipPercentage"] = json!("60.5");
    Mock::given(method("POST"))
        .and(path("/v1/api/business/biz_3M8QK2/ubo"))
        .and(key_header())
        .and(body_json(ubo_body))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "message": "UBO added successfully",
            "data": {"id": "per_8XK2P2", "businessId": "biz_3M8QK2", "role": "UBO",
                     "businessStatus": "SUBMITTED", "submitted": true},
            "error": false
        })))
        .expect(1)
        .mount(&server)
        .await;

    let director = client
        .businesses()
        .add_director("biz_3M8QK2", &example_person())
        .await
        .unwrap();
    assert_eq!(director.role, PersonRole::Director);
    assert_eq!(director.business_status, Some(BusinessStatus::Pending));
    assert_eq!(director.submitted, Some(false));

    let mut ubo = example_person();
    ubo.details.ownership_percentage = Some(dec("60.5"));
    let ubo = client
        .businesses()
        .add_ubo("biz_3M8QK2", &ubo)
        .await
        .unwrap();
    assert_eq!(ubo.role, PersonRole::Ubo);
    assert_eq!(ubo.business_status, Some(BusinessStatus::Submitted));
    assert_eq!(ubo.submitted, Some(true));
}

#[tokio::test]
async fn get_and_update_business() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/business/biz_3M8QK2"))
        .and(key_header())
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("REJECTED")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .and(path("/v1/api/business/biz_3M8QK2"))
        .and(key_header())
        .and(body_json(json!({
            "businessAddress": {"houseNumber": "4B", "street": "Awolowo Road", "city": "Ikoyi", "state": "Lagos", "zipCode": "101233"},
            "TIN": "T-99",
            "tin": "T-99"
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;

    let business = client.businesses().get("biz_3M8QK2").await.unwrap();
    assert_eq!(business.status, BusinessStatus::Rejected);
    assert!(business.status.is_decided());
    assert_eq!(
        business.rejection_reason.as_deref(),
        Some("The bank statement covers fewer than six months.")
    );

    let changes = UpdateBusinessRequest {
        business_address: Some(Address {
            house_number: "4B".into(),
            street: "Awolowo Road".into(),
            city: "Ikoyi".into(),
            state: "Lagos".into(),
            zip_code: "101233".into(),
            subdivision: None,
        }),
        details: BusinessDetails {
            tin: Some("T-99".into()),
            ..BusinessDetails::default()
        },
        ..UpdateBusinessRequest::default()
    };
    let update = client
        .businesses()
        .update("biz_3M8QK2", &changes)
        .await
        .unwrap();
    assert_eq!(update.business.status, BusinessStatus::Pending);
    assert_eq!(update.under_review, ["TIN", "businessAddress", "tin"]);
}

#[tokio::test]
async fn set_webhook_url() {
    let (server, client) = setup().await;
    Mock::given(method("PUT"))
        .and(path("/v1/api/set-webhook"))
        .and(key_header())
        .and(body_json(
            json!({"webhookUrl": "https://merchant.example.org/hooks/crossborder"}),
        ))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"message": "Webhook URL set successfully"})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let ack = client
        .webhooks()
        .set_url("https://merchant.example.org/hooks/crossborder")
        .await
        .unwrap();
    assert_eq!(ack.message, "Webhook URL set successfully");

    let error = client.webhooks().set_url("not a url").await.unwrap_err();
    assert_eq!(error.violations().unwrap()[0].field, "webhookUrl");
}

#[tokio::test]
async fn simulate_funding_in_staging() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/simulate-funding"))
        .and(key_header())
        .and(body_json(json!({
            "currency": "NGN",
            "amount": 50000.10,
            "narration": "PAY-7KQ2M9XD",
            "sessionId": "sim-2026-11-21-0001"
        })))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"message": "Funding simulated successfully"})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let ack = client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            dec("50000.10"),
            "PAY-7KQ2M9XD",
            "sim-2026-11-21-0001",
        ))
        .await
        .unwrap();
    assert_eq!(ack.message, "Funding simulated successfully");
}

#[tokio::test]
async fn sandbox_refuses_a_live_key_without_sending() {
    let server = wiremock::MockServer::start().await;
    let client = common::client_for(&server, common::LIVE_KEY, common::fast_retries());
    let error = client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            dec("1"),
            "PAY-7KQ2M9XD",
            "sim-1",
        ))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::SandboxOnly), "{error:?}");
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[test]
fn clients_errors_and_futures_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>(_: &T) {}
    send_sync::<crossborder::Client>();
    send_sync::<Error>();
    let client = crossborder::Client::builder()
        .api_key(KEY)
        .base_url("https://api.example.org/v1")
        .build()
        .unwrap();
    send(&client.wallet().balance(Currency::Ngn));
    send(&client.payouts().create(&example_payout()));
    send(&client.businesses().upload_document(vec![1u8], "a.pdf"));
    send(
        &client
            .collections()
            .wait_until_settled("r", WaitOptions::default()),
    );
    send(
        &client
            .sandbox()
            .simulate_funding(&SimulateFundingRequest::new(
                Currency::Ngn,
                dec("1"),
                "m",
                "s",
            )),
    );
}

/// A key the SDK does not know is refused with the nearest known key, or,
/// marked unlisted, sent exactly as given (ASSUMPTIONS A22, B15).
#[tokio::test]
async fn an_unknown_document_key_is_refused_or_sent_as_given_when_unlisted() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/business"))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;
    let scuml = DocumentLink::new("https://files.crossborder.invalid/kyb/scuml.pdf", "scuml");

    let mut typo = example_business();
    typo.documents.insert("bank_statment".into(), scuml.clone());
    match client.businesses().create(&typo).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "documents.bank_statment: Unrecognized document key: bank_statment (did you mean bank_statement?)"
        ),
        other => panic!("{other:?}"),
    }

    let mut blank = example_business();
    blank.documents.insert(
        "SCUML_CERTIFICATE".into(),
        DocumentLink::new("", "scuml").unlisted(),
    );
    match client.businesses().create(&blank).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "documents.SCUML_CERTIFICATE.url: is required"
        ),
        other => panic!("{other:?}"),
    }

    let mut unlisted = example_business();
    unlisted
        .documents
        .insert("SCUML_CERTIFICATE".into(), scuml.unlisted());
    client.businesses().create(&unlisted).await.unwrap();
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1, "the refused requests sent nothing");
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(
        body["documents"]["SCUML_CERTIFICATE"],
        json!({"url": "https://files.crossborder.invalid/kyb/scuml.pdf", "key": "scuml"})
    );
    assert_eq!(body["documents"].as_object().unwrap().len(), 5);
}

/// The file is judged by its content and size before any byte is sent: a
/// file over 20,000,000 bytes and text named `.pdf` are refused, PNG bytes
/// named `.pdf` are uploaded (as PNG).
#[tokio::test]
async fn upload_checks_size_and_content_not_the_name() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/upload-document"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"message": "ok", "data": {"link": "https://files.example/doc.png"}, "error": false}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let mut too_big = b"%PDF-1.4\n".to_vec();
    too_big.resize(20_000_001, b' ');
    for (bytes, message) in [
        (too_big, "file: File is larger than 20 MB (20000000 bytes)"),
        (
            b"just some text".to_vec(),
            "file: Unsupported file type: only JPEG, PNG and PDF are accepted",
        ),
    ] {
        let error = client
            .businesses()
            .upload_document(bytes, "statement.pdf")
            .await
            .unwrap_err();
        assert_eq!(error.violations().unwrap().to_string(), message);
    }
    assert!(server.received_requests().await.unwrap().is_empty());

    let png = b"\x89PNG\r\n\x1a\n0000".to_vec();
    let uploaded = client
        .businesses()
        .upload_document(png, "statement.pdf")
        .await
        .unwrap();
    assert_eq!(uploaded.link, "https://files.example/doc.png");
    let requests = server.received_requests().await.unwrap();
    let body = String::from_utf8_lossy(&requests[0].body);
    assert!(body.contains("Content-Type: image/png"), "{body}");
}

/// `DocumentLink::unlisted` only matters for a key the SDK does not know: a
/// known key marked unlisted is checked, counted and sent canonically like
/// any other, so it can never go out next to the same key written another
/// way and replace that document on the wire.
#[tokio::test]
async fn an_unlisted_mark_on_a_known_key_is_ignored() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/business"))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;
    let statement = |id: &str| {
        DocumentLink::new(
            format!("https://files.crossborder.invalid/kyb/{id}.pdf"),
            id,
        )
    };

    // Both go out as `bank_statement`: refused as duplicates, nothing sent.
    let mut clash = example_business();
    clash
        .documents
        .insert("Bank-Statement".into(), statement("statement-2").unlisted());
    match client.businesses().create(&clash).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "documents.bank_statement: Duplicate document: Bank-Statement and bank_statement both map to BANK_STATEMENT"
        ),
        other => panic!("{other:?}"),
    }

    // Alone, it is the bank statement: it satisfies the requirement and is
    // sent as `bank_statement`.
    let mut alone = example_business();
    alone.documents.remove("bank_statement");
    alone
        .documents
        .insert("Bank-Statement".into(), statement("statement-2").unlisted());
    let mapping = alone
        .document_keys()
        .into_iter()
        .find(|m| m.given == "Bank-Statement")
        .unwrap();
    assert_eq!(mapping.sent.as_deref(), Some("bank_statement"));
    assert_eq!(mapping.document_type, Some(DocumentType::BankStatement));
    client.businesses().create(&alone).await.unwrap();
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1, "the clash sent nothing");
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(
        body["documents"]["bank_statement"],
        json!({"url": "https://files.crossborder.invalid/kyb/statement-2.pdf", "key": "statement-2"})
    );
    assert_eq!(body["documents"].as_object().unwrap().len(), 4);
}

/// ASSUMPTIONS B2: any 2xx answer to the upload is success.
#[tokio::test]
async fn upload_accepts_any_2xx() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/upload-document"))
        .respond_with(ResponseTemplate::new(201).set_body_json(
            json!({"message": "Created", "data": {"link": "https://files.example/doc_201.pdf"}}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let uploaded = client
        .businesses()
        .upload_document(b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
        .await
        .unwrap();
    assert_eq!(uploaded.link, "https://files.example/doc_201.pdf");
}

/// A complete business as the API's JSON, documents keyed as given.
fn business_wire_json() -> Value {
    let link = |id: &str| json!({"url": format!("https://files.crossborder.invalid/kyb/{id}.pdf"), "key": id});
    json!({
        "name": "Lagos Trading Ltd", "businessType": "LLC", "registrationNumber": "RC1234567",
        "email": "compliance@lagostrading.ng", "phoneNumber": "+2348012345678",
        "natureOfBusiness": {"nature": "Wholesale of consumer electronics", "code": "4652"},
        "businessAddress": {"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki", "state": "Lagos", "zipCode": "106104"},
        "proofOfAddress": {"url": "https://files.crossborder.invalid/kyb/utility.pdf", "key": "utility", "type": "Utility bill"},
        "documents": {"CAC": link("cac"), "Bank-Statement": link("statement"),
                      "application_letter": link("letter"), "bn1": link("bn1")}
    })
}

/// ASSUMPTIONS C17: a field the request does not have is refused before
/// sending, naming the nearest field it has, at any depth; the rest of the
/// body is still checked.
#[tokio::test]
async fn json_requests_refuse_unknown_fields_with_the_nearest_one() {
    let (server, client) = setup().await;
    let businesses = client.businesses();

    let mut create = business_wire_json();
    create["businessWebiste"] = json!("https://lagostrading.ng");
    create["businessAddress"]["stret"] = json!("Admiralty Way");
    create["documents"]["CAC"]["kye"] = json!("cac");
    create["colour"] = json!("blue");
    create["email"] = json!("not-an-email");
    match businesses.create_json(&create).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations
                .iter()
                .map(|v| (v.field.to_string(), v.rule, v.message.clone()))
                .collect::<Vec<_>>(),
            [
                (
                    "businessAddress.stret".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request (did you mean street?)".to_owned()
                ),
                (
                    "documents.CAC.kye".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request (did you mean key?)".to_owned()
                ),
                (
                    "businessWebiste".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request (did you mean businessWebsite?)".to_owned()
                ),
                (
                    "colour".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request".to_owned()
                ),
                (
                    "email".to_owned(),
                    Rule::InvalidFormat,
                    "must be an email address such as name@example.com".to_owned()
                ),
            ]
        ),
        other => panic!("{other:?}"),
    }

    let mut update = json!({"businessWebiste": "https://lagostrading.ng"});
    match businesses
        .update_json("biz_3M8QK2", &update)
        .await
        .unwrap_err()
    {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "businessWebiste: is not a field of this request (did you mean businessWebsite?); \
             body: an update must change at least one field"
        ),
        other => panic!("{other:?}"),
    }
    update["hasWebsite"] = json!(true);
    match businesses
        .update_json("biz_3M8QK2", &update)
        .await
        .unwrap_err()
    {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "businessWebiste: is not a field of this request (did you mean businessWebsite?)"
        ),
        other => panic!("{other:?}"),
    }

    let mut director = person_body();
    director["firstNme"] = director["firstName"].take();
    director.as_object_mut().unwrap().remove("firstName");
    director["address"]["zip"] = json!("101233");
    match businesses
        .add_director_json("biz_3M8QK2", &director)
        .await
        .unwrap_err()
    {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "address.zip: is not a field of this request; \
             firstNme: is not a field of this request (did you mean firstName?); \
             firstName: is required"
        ),
        other => panic!("{other:?}"),
    }
    let mut ubo = person_body();
    ubo["ownershipPercentge"] = json!("60");
    match businesses
        .add_ubo_json("biz_3M8QK2", &ubo)
        .await
        .unwrap_err()
    {
        Error::Validation(violations) => assert_eq!(
            violations.to_string(),
            "ownershipPercentge: is not a field of this request (did you mean ownershipPercentage?)"
        ),
        other => panic!("{other:?}"),
    }
    assert!(server.received_requests().await.unwrap().is_empty());
}

/// ASSUMPTIONS C18: an update that changes nothing is refused, typed or as
/// JSON (nulls are not changes), and nothing is sent.
#[tokio::test]
async fn an_update_that_changes_nothing_is_refused() {
    let (server, client) = setup().await;
    let businesses = client.businesses();
    let refused = "body: an update must change at least one field";
    let error = businesses
        .update("biz_3M8QK2", &UpdateBusinessRequest::default())
        .await
        .unwrap_err();
    assert_eq!(error.violations().unwrap().to_string(), refused);
    assert_eq!(error.violations().unwrap()[0].rule, Rule::NothingToUpdate);
    for body in [json!({}), json!({"email": null, "tin": null})] {
        let error = businesses
            .update_json("biz_3M8QK2", &body)
            .await
            .unwrap_err();
        assert_eq!(error.violations().unwrap().to_string(), refused, "{body}");
    }
    assert!(server.received_requests().await.unwrap().is_empty());
}

/// A JSON create goes out with canonical keys, exactly as
/// `check_business_json` reports them in `document_keys`.
#[tokio::test]
async fn create_json_sends_the_keys_the_verdict_shows() {
    let (server, client) = setup().await;
    Mock::given(method("POST"))
        .and(path("/v1/api/business"))
        .respond_with(ResponseTemplate::new(200).set_body_json(business_json("PENDING")))
        .expect(1)
        .mount(&server)
        .await;
    let body = business_wire_json();
    let verdict = crossborder::json::check_business_json(
        &body,
        crossborder::json::BusinessRequestKind::Create,
    );
    assert!(verdict.valid, "{:?}", verdict.violations);
    assert_eq!(
        serde_json::to_value(&verdict).unwrap()["document_keys"],
        json!([
            {"given": "Bank-Statement", "sent": "bank_statement", "type": "BANK_STATEMENT"},
            {"given": "CAC", "sent": "cac", "type": "CERTIFICATE_OF_INCORPORATION"},
            {"given": "application_letter", "sent": "APPLICATION_LETTER", "type": "APPLICATION_LETTER"},
            {"given": "bn1", "sent": "bn_form_1", "type": "BN_FORM_1"},
        ])
    );
    client.businesses().create_json(&body).await.unwrap();
    let requests = server.received_requests().await.unwrap();
    let sent: Value = serde_json::from_slice(&requests[0].body).unwrap();
    let mut keys: Vec<&str> = sent["documents"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    let mut shown: Vec<&str> = verdict
        .document_keys
        .iter()
        .filter_map(|m| m.sent.as_deref())
        .collect();
    shown.sort_unstable();
    assert_eq!(keys, shown);
}

/// ASSUMPTIONS B23: a resumed onboarding reads the business before adding
/// people; a service that sends no `directorCount` or `uboCount` leaves the
/// progress as it is, so every person not in it is added.
#[tokio::test]
async fn a_resumed_onboarding_without_counts_adds_the_people_left() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/business/biz_3M8QK2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"message": "ok", "data": {"id": "biz_3M8QK2", "status": "PENDING"}}),
        ))
        .expect(2)
        .mount(&server)
        .await;
    for role in ["director", "ubo"] {
        Mock::given(method("POST"))
            .and(path(format!("/v1/api/business/biz_3M8QK2/{role}")))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "message": "ok",
                "data": {"id": "per_1", "businessId": "biz_3M8QK2", "role": role.to_uppercase()}
            })))
            .expect(1)
            .mount(&server)
            .await;
    }
    let application = crossborder::onboard::Application {
        business: Some(example_business()),
        directors: vec![example_person()],
        ubos: vec![example_person()],
        files: Default::default(),
    };
    let progress = crossborder::onboard::Progress {
        business_id: Some("biz_3M8QK2".into()),
        ..Default::default()
    };
    let onboarded = client
        .businesses()
        .onboard(&application, progress, |_, _| {})
        .await
        .unwrap();
    assert_eq!(onboarded.business.id, "biz_3M8QK2");
}
