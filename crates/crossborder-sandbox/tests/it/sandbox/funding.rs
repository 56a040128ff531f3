//! Simulated funding, the webhook and its delivery log.

use std::time::Duration;

use crossborder_sandbox::{SandboxConfig, MAX_WEBHOOK_DELIVERIES, PRODUCTION_KEY, STAGING_KEY};
use reqwest::Method;
use serde_json::{json, Value};

use crate::sandbox::common::{
    assert_balances, assert_error, assert_paid, fund_ok, funding, ngn_collection, post_ok,
    received, refused, refused_field, with_receiver, Api, Receiver, PAST_VALIDITY,
};

#[tokio::test]
async fn partial_then_full_payment_with_one_webhook_each() {
    let api = Api::start().await;
    let receiver = Receiver::start().await;
    let set = api.set_webhook(receiver.url()).await;
    assert_eq!(set.body, json!({"message": "Webhook URL set successfully"}));

    let memo = ngn_collection(&api, "order-1", 50000).await;
    let partial = funding("NGN", json!(20000), &memo, "sim-1");
    let reply = api.post("/api/simulate-funding", &partial).await;
    assert_eq!(
        reply.body,
        json!({"message": "Funding simulated successfully"})
    );
    assert_paid(&api, "order-1", "PARTIALLY_PAID", json!(20000)).await;
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5020000");

    // Replaying the same simulation credits nothing and sends nothing.
    let replay = api.post("/api/simulate-funding", &partial).await;
    assert_eq!(replay.status, 200);
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5020000");
    api.post_refused(
        "/api/simulate-funding",
        &funding("NGN", json!(1), &memo, "sim-1"),
        409,
        "sessionId already used for a different funding: sim-1",
    )
    .await;

    fund_ok(&api, "NGN", json!(35000.5), &memo, "sim-2").await;
    assert_paid(&api, "order-1", "COMPLETED", json!(55000.5)).await;
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5055000.5");

    let deliveries = api
        .sandbox
        .wait_for_webhook_deliveries(2, Duration::from_secs(10))
        .await;
    assert_eq!(deliveries.len(), 2);
    assert!(
        deliveries.iter().all(|delivery| delivery.succeeded()),
        "{deliveries:?}"
    );
    // No retry and no extra event arrive later.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let received = received(&api, &receiver, 2).await;
    assert_eq!(
        received[0],
        json!({"reference": "order-1", "memo": memo, "amount": 50000, "paidAmount": 20000,
               "remainingAmount": 30000, "currency": "NGN", "status": false,
               "message": "Partial payment received"})
    );
    assert_eq!(
        received[1],
        json!({"reference": "order-1", "memo": memo, "amount": 50000, "paidAmount": 55000.5,
               "remainingAmount": -5000.5, "currency": "NGN", "status": true,
               "message": "Payment completed"})
    );
    assert_eq!(deliveries[0].json(), received[0]);
    assert_eq!(deliveries[0].url, receiver.url());
}

#[tokio::test]
async fn an_unreachable_receiver_gets_one_attempt() {
    let api = Api::start().await;
    // A port that was just free: nothing listens there.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}/hook", listener.local_addr().unwrap());
    drop(listener);
    api.set_webhook(&dead).await;
    let memo = ngn_collection(&api, "order-dead", 100).await;
    fund_ok(&api, "NGN", json!(100), &memo, "d-1").await;
    let deliveries = api
        .sandbox
        .wait_for_webhook_deliveries(1, Duration::from_secs(10))
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(api.sandbox.webhook_deliveries().len(), 1);
    assert!(!deliveries[0].succeeded());
    assert!(deliveries[0].error.is_some());
}

#[tokio::test]
async fn funding_rules() {
    let api = Api::start().await;
    let memo = ngn_collection(&api, "order-2", 1000).await;

    let live = api
        .raw(
            Method::POST,
            "/api/simulate-funding",
            Some(PRODUCTION_KEY),
            Some(&funding("NGN", json!(10), &memo, "l-1")),
        )
        .await;
    assert_error(
        &live,
        400,
        "Funding simulation is only available in staging",
        "POST",
        "/api/simulate-funding",
    );

    // Fundings refused whole, before anything is credited.
    let cases = [
        (
            "unknown narration",
            funding("NGN", json!(10), "PAY-NOPE0000", "n-1"),
            404,
            "No collection matches narration: PAY-NOPE0000",
        ),
        (
            "another wallet than the collection's",
            funding("USD", json!(10), &memo, "w-1"),
            400,
            "currency: must be NGN, the wallet collection order-2 credits",
        ),
    ];
    let path = "/api/simulate-funding";
    for (case, body, status, message) in cases {
        refused(&api, case, path, Some(&body), status, message).await;
    }
    let every_field = json!({"currency": "XYZ", "amount": "10"});
    let message = "Invalid currency: XYZ";
    let invalid = refused(&api, "every field", path, Some(&every_field), 400, message).await;
    assert_eq!(
        invalid.body["errors"],
        json!([
            {"field": "amount", "message": "must be a number"},
            {"field": "currency", "message": "Invalid currency: XYZ"},
            {"field": "narration", "message": "is required"},
            {"field": "sessionId", "message": "is required"}
        ])
    );

    // Over-payment completes the collection and keeps the full paid amount.
    fund_ok(&api, "NGN", json!(1500), &memo, "o-1").await;
    assert_paid(&api, "order-2", "COMPLETED", json!(1500)).await;
}

#[tokio::test]
async fn webhook_url_must_be_absolute_http() {
    let api = Api::start().await;
    for url in ["", "not a url", "ftp://example.org/x", "/relative"] {
        let reply = api.put_webhook(&json!({"webhookUrl": url})).await;
        assert_eq!(reply.status, 400, "{url}: {}", reply.text);
    }
    let missing = api.put_webhook(&json!({})).await;
    assert_error(
        &missing,
        400,
        "webhookUrl: is required",
        "PUT",
        "/api/set-webhook",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_delivery_log_keeps_the_last_thousand_attempts() {
    let (api, receiver) = with_receiver(SandboxConfig::default()).await;
    // One event per status change (ASSUMPTIONS B9): each collection of 1
    // NGN paid at once is one event.
    let total = MAX_WEBHOOK_DELIVERIES + 5;
    for index in 0..total {
        let memo = ngn_collection(&api, &format!("many-{index}"), 1).await;
        fund_ok(&api, "NGN", json!(1), &memo, &format!("many-{index}")).await;
    }
    let deliveries = api
        .sandbox
        .wait_for_webhook_deliveries(total, Duration::from_secs(60))
        .await;
    assert_eq!(receiver.bodies().len(), total);
    assert_eq!(deliveries.len(), MAX_WEBHOOK_DELIVERIES);
    assert_eq!(
        api.sandbox.webhook_deliveries().len(),
        MAX_WEBHOOK_DELIVERIES
    );
    // The newest attempts are the ones kept.
    let kept: Vec<String> = deliveries
        .iter()
        .map(|delivery| delivery.json()["reference"].as_str().unwrap().to_owned())
        .collect();
    assert!(kept.contains(&format!("many-{}", total - 1)), "{kept:?}");
    assert!(!kept.contains(&"many-0".to_owned()), "{kept:?}");
}

/// ASSUMPTIONS.md A14: a converting collection credits its toCurrency
/// wallet only, so a funding in its fromCurrency (what the payer sends) or
/// any third currency is refused, naming the wallet, and changes nothing.
#[tokio::test]
async fn a_converting_collection_refuses_other_currencies_than_its_wallet() {
    let api = Api::start().await;
    let memo = api.collection("fx-1", json!(153_025), "NGN", "USD").await;
    let created = api.transaction("fx-1").await;
    assert_eq!(created["rate"], json!(0.000653487992));
    assert_eq!(created["toAmount"], json!(100));
    let message = "currency: must be USD, the wallet collection fx-1 credits (its fromCurrency \
                   NGN is what the payer sends, not a wallet to credit)";
    for (currency, session) in [("NGN", "fx-f1"), ("EUR", "fx-eur")] {
        let other = funding(currency, json!(100), &memo, session);
        refused(
            &api,
            currency,
            "/api/simulate-funding",
            Some(&other),
            400,
            message,
        )
        .await;
    }
    assert_balances(&api, &[("USD", "10000"), ("NGN", "5000000")]).await;
    assert_paid(&api, "fx-1", "PENDING", json!(0)).await;
}

/// ASSUMPTIONS.md A14: simulate-funding's currency is "the currency of the
/// wallet to credit", so a converting collection also takes its
/// toCurrency: that wallet gets the amount itself, and paidAmount grows by
/// the amount divided by the rate, rounded to fromCurrency's minor unit.
#[tokio::test]
async fn a_converting_collection_can_be_funded_in_its_to_currency() {
    let (api, receiver) = with_receiver(SandboxConfig::default()).await;
    let memo = api.collection("fx-to", json!(153_025), "NGN", "USD").await;

    // 39.21 USD ÷ 0.000653487992 = 60001.0983... → 60001.10 NGN paid.
    let first = funding("USD", json!(39.21), &memo, "to-1");
    post_ok(&api, "/api/simulate-funding", &first).await;
    assert_balances(&api, &[("USD", "10039.21"), ("NGN", "5000000")]).await;
    assert_paid(&api, "fx-to", "PARTIALLY_PAID", json!(60001.1)).await;

    // A replay credits nothing.
    post_ok(&api, "/api/simulate-funding", &first).await;
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "10039.21");

    // 60.79 USD ÷ 0.000653487992 = 93023.8975... → 93023.90 NGN: 153025 paid.
    fund_ok(&api, "USD", json!(60.79), &memo, "to-2").await;
    assert_paid(&api, "fx-to", "COMPLETED", json!(153025)).await;
    assert_balances(&api, &[("USD", "10100"), ("NGN", "5000000")]).await;

    // The webhooks describe the payer's side, in NGN.
    let received = received(&api, &receiver, 2).await;
    assert_eq!(
        received[0],
        json!({"reference": "fx-to", "memo": memo, "amount": 153025, "paidAmount": 60001.1,
               "remainingAmount": 93023.9, "currency": "NGN", "status": false,
               "message": "Partial payment received"})
    );
    assert_eq!(received[1]["status"], json!(true));
    assert_eq!(received[1]["remainingAmount"], json!(0));

    // 100 USD pays a whole 153025 NGN collection.
    let memo = api
        .collection("fx-to-2", json!(153_025), "NGN", "USD")
        .await;
    // 100 ÷ 0.000653487992 = 153025.000037... → 153025.00.
    fund_ok(&api, "USD", json!(100), &memo, "to-4").await;
    assert_paid(&api, "fx-to-2", "COMPLETED", json!(153025)).await;
}

/// ASSUMPTIONS.md A14: a funding in toCurrency that pays less than
/// fromCurrency's minor unit (1 NGN into a USD→NGN collection is 0.00065
/// USD, which rounds to 0.00) is refused, naming the least amount that
/// pays something: nothing is credited, the collection stays PENDING, no
/// event is sent, and the sessionId stays free.
#[tokio::test]
async fn a_to_currency_funding_that_pays_nothing_is_refused() {
    let (api, receiver) = with_receiver(SandboxConfig::default()).await;
    let memo = api.collection("fx-tiny", json!(100), "USD", "NGN").await;
    assert_eq!(api.transaction("fx-tiny").await["rate"], json!(1530.25));

    // 0.005 USD × 1530.25 = 7.65125, up to 7.66 NGN: 7.65 ÷ 1530.25 =
    // 0.004999… rounds to 0.00 USD, 7.66 ÷ 1530.25 = 0.005005… to 0.01.
    let problem = "must be at least 7.66 NGN, the least that pays 0.01 USD of \
                   collection fx-tiny at its rate of 1530.25 NGN per USD";
    for amount in [json!(1), json!(7.65), json!(0.01)] {
        let tiny = funding("NGN", amount, &memo, "tiny-1");
        refused_field(&api, "/api/simulate-funding", &tiny, "amount", problem).await;
    }
    assert_balances(&api, &[("NGN", "5000000"), ("USD", "10000")]).await;
    assert_paid(&api, "fx-tiny", "PENDING", json!(0)).await;

    // The least amount pays one cent, with the same sessionId.
    fund_ok(&api, "NGN", json!(7.66), &memo, "tiny-1").await;
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5000007.66");
    assert_paid(&api, "fx-tiny", "PARTIALLY_PAID", json!(0.01)).await;
    assert_eq!(
        received(&api, &receiver, 1).await,
        vec![
            json!({"reference": "fx-tiny", "memo": memo, "amount": 100, "paidAmount": 0.01,
                    "remainingAmount": 99.99, "currency": "USD", "status": false,
                    "message": "Partial payment received"})
        ]
    );

    // Once lapsed, the collection takes nothing, and that is what any
    // funding hears first: a tiny one, or one in a third currency.
    api.clock.advance(PAST_VALIDITY);
    for (case, currency, amount) in [
        ("tiny", "NGN", json!(1)),
        ("third currency", "EUR", json!(10)),
    ] {
        let late = funding(currency, amount, &memo, "tiny-late");
        let message = "Collection fx-tiny has expired";
        refused(
            &api,
            case,
            "/api/simulate-funding",
            Some(&late),
            400,
            message,
        )
        .await;
    }
}

/// A sandbox that sweeps for lapsed collections every `interval`, and the
/// webhook receiver registered with it.
async fn sweeping_every(interval: Duration) -> (Api, Receiver) {
    with_receiver(SandboxConfig::default().with_expiry_sweep_interval(interval)).await
}

/// Every status change is announced, expiry included: the sweep announces
/// a lapsed collection nobody reads, and a read that finds one lapsed first
/// announces it instead; each expiry once.
#[tokio::test]
async fn expiry_is_announced_once_by_the_sweep_or_the_first_read() {
    let (api, receiver) = sweeping_every(Duration::from_millis(10)).await;
    let memo = ngn_collection(&api, "lapsing", 5000).await;
    ngn_collection(&api, "lapsing-unpaid", 700).await;
    fund_ok(&api, "NGN", json!(1000), &memo, "e-1").await;
    api.sandbox
        .wait_for_webhook_deliveries(1, Duration::from_secs(10))
        .await;

    api.clock.advance(PAST_VALIDITY);
    let deliveries = api
        .sandbox
        .wait_for_webhook_deliveries(3, Duration::from_secs(10))
        .await;
    assert_eq!(deliveries.len(), 3, "{deliveries:?}");
    // Reads and later sweeps send nothing more.
    assert_eq!(api.transaction("lapsing").await["status"], "EXPIRED");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut expiries: Vec<Value> = receiver.bodies().split_off(1);
    assert_eq!(expiries.len(), 2, "{expiries:?}");
    expiries.sort_by_key(|event| event["reference"].as_str().unwrap_or_default().to_owned());
    assert_eq!(
        expiries,
        vec![
            json!({"reference": "lapsing", "memo": memo, "amount": 5000, "paidAmount": 1000,
                   "remainingAmount": 4000, "currency": "NGN", "status": "EXPIRED",
                   "message": "Collection expired"}),
            json!({"reference": "lapsing-unpaid", "memo": expiries[1]["memo"], "amount": 700,
                   "paidAmount": 0, "remainingAmount": 700, "currency": "NGN",
                   "status": "EXPIRED", "message": "Collection expired"}),
        ]
    );
}

#[tokio::test]
async fn a_read_announces_an_expiry_the_sweep_has_not_seen() {
    // A sweep that practically never runs: the read finds the lapse first.
    let (api, receiver) = sweeping_every(Duration::from_secs(3600)).await;
    let memo = ngn_collection(&api, "read-lapse", 5000).await;
    api.clock.advance(PAST_VALIDITY);
    for _ in 0..2 {
        assert_eq!(api.transaction("read-lapse").await["status"], "EXPIRED");
    }
    // A late funding is refused and announces nothing more.
    let late = api.fund("NGN", json!(10), &memo, "late").await;
    assert_eq!(late.status, 400, "{}", late.text);
    api.sandbox
        .wait_for_webhook_deliveries(1, Duration::from_secs(10))
        .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let received = received(&api, &receiver, 1).await;
    assert_eq!(received[0]["status"], json!("EXPIRED"));
    assert_eq!(received[0]["reference"], json!("read-lapse"));
}

#[tokio::test]
async fn a_funding_announces_an_expiry_nobody_has_seen() {
    // A sweep that practically never runs, and nobody reads: the funding
    // finds the lapse first, announces it, and is refused.
    let (api, receiver) = sweeping_every(Duration::from_secs(3600)).await;
    let memo = ngn_collection(&api, "fund-lapse", 5000).await;
    api.clock.advance(PAST_VALIDITY);
    for session in ["late-1", "late-2"] {
        let late = funding("NGN", json!(10), &memo, session);
        let message = "Collection fund-lapse has expired";
        refused(
            &api,
            session,
            "/api/simulate-funding",
            Some(&late),
            400,
            message,
        )
        .await;
    }
    assert_eq!(api.transaction("fund-lapse").await["status"], "EXPIRED");
    // Another collection's payment, announced after everything above.
    let other = ngn_collection(&api, "fund-after", 5000).await;
    fund_ok(&api, "NGN", json!(5000), &other, "after-1").await;
    let received = received(&api, &receiver, 2).await;
    let references: Vec<_> = received
        .iter()
        .map(|event| (event["reference"].clone(), event["status"].clone()))
        .collect();
    assert_eq!(
        references,
        [
            (json!("fund-lapse"), json!("EXPIRED")),
            (json!("fund-after"), json!(true))
        ],
        "{received:?}"
    );
}

/// ASSUMPTIONS.md B9: by default the sandbox sweeps every second, so a
/// lapsed collection nobody reads is announced without any request.
#[tokio::test]
async fn by_default_the_sweep_announces_a_lapse_on_its_own() {
    let config = SandboxConfig::default();
    assert_eq!(config.expiry_sweep_interval, Duration::from_secs(1));
    // The receiver is kept alive to take the event; the sandbox's own log
    // is what is checked.
    let (api, _receiver) = with_receiver(config).await;
    ngn_collection(&api, "quiet-lapse", 5000).await;
    api.clock.advance(PAST_VALIDITY);
    let deliveries = api
        .sandbox
        .wait_for_webhook_deliveries(1, Duration::from_secs(20))
        .await;
    assert_eq!(deliveries.len(), 1, "{deliveries:?}");
    let event = deliveries[0].json();
    assert_eq!(event["reference"], json!("quiet-lapse"));
    assert_eq!(event["status"], json!("EXPIRED"));
    assert_eq!(event["message"], json!("Collection expired"));
}
