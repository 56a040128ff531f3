//! Quotes: the request (path, rail query, headers) and the mapping of the answer; amounts refused before sending.

use super::*;

#[tokio::test]
async fn quote_with_rail() {
    let (server, client) = setup().await;
    mock::quote("USD", "NGN", "100.50")
        .and(query_param("rail", "swift"))
        .and(header("user-agent", ClientBuilder::USER_AGENT))
        .answers_once(&server, ResponseTemplate::new(200).set_body_raw(
            r#"{"message":"Quote retrieved successfully","data":{"rate":1530.25,"roundedRate":1530.25,
               "rateKey":"rk_9f2c4e1a7b3d4c5e","fromCurrency":"USD","toCurrency":"NGN","fee":1.5,
               "toAmount":153787.625,"totalAmount":102.00,"expiresAt":"2026-11-21T12:05:00Z","extra":1},"error":false}"#,
            "application/json",
        )).await;

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
    mock::quote("NGN", "USDT", "250000")
        .answers_once(&server, ok(json!({
            "message": "ok",
            "data": {"rate": 0.000625, "rateKey": "rk_1", "fromCurrency": "NGN", "toCurrency": "USDT"}
        }))).await;
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
    assert_nothing_sent(&server).await;
}
