//! The sandbox's control API (`/_sandbox/...`) and `SandboxHandle`'s same
//! actions, read back through the SDK: funding and expiring collections,
//! approving and rejecting businesses, redelivering webhooks, setting
//! balances, resetting; every refusal with its status and exact message;
//! tenant isolation.

use std::time::Duration;

use crossborder::{types::BusinessStatus, Client, Currency, WaitOptions};
use crossborder_contract_tests::{
    collection, control, d, field_errors, sdk_client, Env, Reply, WebhookReceiver, PRODUCTION_KEY,
    STAGING_KEY,
};
use crossborder_sandbox::control::ControlError;
use crossborder_sandbox::PayoutSettlement;
use crossborder_testkit::onboarded_business;
use reqwest::Method;
use serde_json::{json, Value};

const WAIT: Duration = Duration::from_secs(10);

async fn post(env: &Env, path: &str, body: Option<Value>) -> Reply {
    control(env, Method::POST, path, STAGING_KEY, body).await
}

/// The error body of the control API: the API's shape, at `path`.
fn assert_refused(reply: &Reply, status: u16, message: &str, method: &str, path: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    assert_eq!(reply.body["statusCode"], json!(status), "{}", reply.text);
    assert_eq!(reply.body["message"], json!(message), "{}", reply.text);
    assert_eq!(reply.body["path"], json!(path), "{}", reply.text);
    assert_eq!(reply.body["request"]["method"], json!(method));
    assert_eq!(reply.body["request"]["url"], json!(path));
}

/// A sandbox whose staging business sends its webhooks to a receiver, and
/// has a collection of each `(reference, amount)`.
async fn watched(collections: &[(&str, &str)]) -> (Env, Client, WebhookReceiver) {
    let env = Env::start().await;
    let client = sdk_client(env.base_url(), STAGING_KEY);
    let receiver = WebhookReceiver::start().await;
    client.webhooks().set_url(receiver.url()).await.unwrap();
    for (reference, amount) in collections {
        collection(&client, reference, amount).await;
    }
    (env, client, receiver)
}

fn refused(error: ControlError) -> (u16, String) {
    (error.status(), error.message().to_owned())
}

async fn business(client: &Client, registration_number: &str, submit: bool) -> String {
    onboarded_business(client, registration_number, submit)
        .await
        .expect("the business is created")
}

/// The staging business's starting balances, as the control API shows
/// them.
fn starting_balances() -> Value {
    json!([
        {"currency": "NGN", "amount": "5000000.00"},
        {"currency": "USD", "amount": "10000.00"},
        {"currency": "USDT", "amount": "10000.000000"},
    ])
}

#[tokio::test]
async fn the_state_lists_what_the_business_holds_and_nothing_of_another() {
    let env = Env::start().await;
    let client = sdk_client(env.base_url(), STAGING_KEY);
    let memo = collection(&client, "order-1", "5000").await;

    let state = control(&env, Method::GET, "/_sandbox/state", STAGING_KEY, None).await;
    assert_eq!(state.status, 200, "{}", state.text);
    assert_eq!(state.body["balances"], starting_balances());
    let order = &state.body["collections"][0];
    assert_eq!(order["paymentReference"], "order-1");
    assert_eq!(order["memo"], json!(memo));
    assert_eq!(order["status"], "PENDING");
    assert_eq!(order["currency"], "NGN");
    assert_eq!(order["amount"], "5000.00");
    assert_eq!(order["paidAmount"], "0.00");
    assert_eq!(order["remainingAmount"], "5000.00");
    assert_eq!(order["createdAt"], "2026-11-21T12:00:00.000Z");
    assert_eq!(order["expiresAt"], "2026-11-22T12:00:00.000Z");
    assert_eq!(order["paymentInstruction"]["accountNumber"], "9930001234");
    assert_eq!(order["paymentInstruction"]["amountToTransfer"], "5000");
    assert_eq!(order["fundings"], json!([]));
    assert_eq!(
        state.body["settings"],
        json!({"payoutSettlement": "instant"})
    );
    // The API's requests, not the control API's own.
    assert_eq!(
        state.body["requests"],
        json!([
            {"method": "POST", "path": "/v1/api/initiate-payment", "status": 200,
             "at": "2026-11-21T12:00:00.000Z", "fault": null}
        ])
    );
    // The same read model through the handle.
    let typed = env.sandbox.state(STAGING_KEY).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), state.body);
    // The API's instruction, the one element of its list (ASSUMPTIONS B87).
    let read = control(
        &env,
        Method::GET,
        "/v1/api/transaction/order-1",
        STAGING_KEY,
        None,
    )
    .await;
    assert_eq!(read.status, 200, "{}", read.text);
    assert_eq!(
        read.body["data"]["paymentInstruction"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    assert_eq!(
        order["paymentInstruction"],
        read.body["data"]["paymentInstruction"][0]
    );

    // Another business sees none of it, and cannot act on it.
    let other = control(&env, Method::GET, "/_sandbox/state", PRODUCTION_KEY, None).await;
    assert_eq!(other.body["collections"], json!([]));
    assert_eq!(other.body["requests"], json!([]));
    let path = "/_sandbox/collections/order-1/fund";
    let theirs = control(&env, Method::POST, path, PRODUCTION_KEY, None).await;
    assert_refused(&theirs, 404, "Collection not found: order-1", "POST", path);
    assert_eq!(
        refused(
            env.sandbox
                .fund_collection(PRODUCTION_KEY, "order-1", None)
                .unwrap_err()
        ),
        (404, "Collection not found: order-1".to_owned())
    );

    // A production key acts on its own business (simulate-funding would
    // refuse it: the control API is the sandbox's own).
    let live = sdk_client(env.base_url(), PRODUCTION_KEY);
    collection(&live, "order-1", "10").await;
    let funded = control(&env, Method::POST, path, PRODUCTION_KEY, None).await;
    assert_eq!(funded.status, 200, "{}", funded.text);
    assert_eq!(funded.body["status"], "COMPLETED");
    assert_eq!(
        env.sandbox.state(STAGING_KEY).unwrap().collections[0].status,
        "PENDING"
    );

    // The API's authentication, in its shape.
    let root = env.base_url().trim_end_matches("/v1");
    let bare = crossborder_contract_tests::reply(
        env.http
            .get(format!("{root}/_sandbox/state"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_refused(
        &bare,
        403,
        "API key header needed",
        "GET",
        "/_sandbox/state",
    );
    let unknown = control(
        &env,
        Method::GET,
        "/_sandbox/state",
        "test_unknown_key_1234",
        None,
    )
    .await;
    assert_refused(&unknown, 401, "Invalid api key", "GET", "/_sandbox/state");
    assert_eq!(
        refused(env.sandbox.state("test_unknown_key_1234").unwrap_err()),
        (401, "Invalid api key".to_owned())
    );
}

#[tokio::test]
async fn funding_through_the_control_api_pays_the_collection_and_fires_the_webhook() {
    let (env, client, receiver) = watched(&[("order-1", "5000")]).await;

    let path = "/_sandbox/collections/order-1/fund";
    let part = post(&env, path, Some(json!({"amount": "2000.50"}))).await;
    assert_eq!(part.status, 200, "{}", part.text);
    assert_eq!(part.body["status"], "PARTIALLY_PAID");
    assert_eq!(part.body["paidAmount"], "2000.50");
    assert_eq!(part.body["remainingAmount"], "2999.50");
    assert_eq!(
        part.body["fundings"],
        json!([{"amount": "2000.50", "credited": "2000.50", "at": "2026-11-21T12:00:00.000Z"}])
    );
    // No amount: what remains, through the handle.
    let full = env
        .sandbox
        .fund_collection(STAGING_KEY, "order-1", None)
        .unwrap();
    assert_eq!(full.status, "COMPLETED");
    assert_eq!(full.paid_amount, d("5000.00"));
    assert_eq!(full.remaining_amount, d("0"));

    let read = client.collections().get("order-1").await.unwrap();
    assert_eq!(read.status.as_str(), "COMPLETED");
    assert_eq!(read.paid_amount, Some(d("5000")));
    assert_eq!(
        client.wallet().balance(Currency::Ngn).await.unwrap().amount,
        d("5005000")
    );
    let events: Vec<Value> = receiver
        .wait_for(2, WAIT)
        .await
        .iter()
        .map(|r| r.json())
        .collect();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["message"], "Partial payment received");
    assert_eq!(events[0]["paidAmount"], json!(2000.5));
    assert_eq!(events[1]["message"], "Payment completed");
    assert_eq!(events[1]["remainingAmount"], json!(0));

    // A completed collection takes nothing more, either way.
    let again = post(&env, path, None).await;
    let message = "Collection order-1 is COMPLETED; only a PENDING or PARTIALLY_PAID collection can be funded";
    assert_refused(&again, 409, message, "POST", path);
    assert_eq!(
        refused(
            env.sandbox
                .fund_collection(STAGING_KEY, "order-1", Some(d("1")))
                .unwrap_err()
        ),
        (409, message.to_owned())
    );
    assert_eq!(
        client.wallet().balance(Currency::Ngn).await.unwrap().amount,
        d("5005000")
    );
}

#[tokio::test]
async fn a_converting_collection_is_funded_in_what_the_payer_pays() {
    let (env, client, receiver) = watched(&[]).await;
    let rate_key = env.rate_key("USD", "NGN", "100").await;
    let body = json!({"amount": 100, "fromCurrency": "USD", "toCurrency": "NGN",
                      "paymentReference": "order-fx", "rateKey": rate_key});
    assert_eq!(env.post("/api/initiate-payment", &body).await.status, 200);

    let part = env
        .sandbox
        .fund_collection(STAGING_KEY, "order-fx", Some(d("40")))
        .unwrap();
    assert_eq!(
        (part.currency.as_str(), part.to_currency.as_str()),
        ("USD", "NGN")
    );
    assert_eq!(part.fundings[0].amount.to_string(), "40.00");
    assert_eq!(part.fundings[0].credited.to_string(), "61210.00");
    let rest = post(&env, "/_sandbox/collections/order-fx/fund", None).await;
    assert_eq!(rest.body["status"], "COMPLETED", "{}", rest.text);
    assert_eq!(rest.body["fundings"][0]["amount"], "60.00");
    assert_eq!(rest.body["fundings"][0]["credited"], "91815.00");
    assert_eq!(
        client.wallet().balance(Currency::Ngn).await.unwrap().amount,
        d("5153025")
    );
    assert_eq!(
        client.wallet().balance(Currency::Usd).await.unwrap().amount,
        d("10000")
    );
    let events = receiver.wait_for(2, WAIT).await;
    assert_eq!(events[1].json()["currency"], "USD");
    assert_eq!(events[1].json()["paidAmount"], json!(100));
}

#[tokio::test]
async fn bad_fund_bodies_name_the_field_and_change_nothing() {
    let env = Env::start().await;
    let client = sdk_client(env.base_url(), STAGING_KEY);
    collection(&client, "order-1", "5000").await;
    let path = "/_sandbox/collections/order-1/fund";
    for (body, message) in [
        (json!({"amount": 25}), "amount: must be a string"),
        (
            json!({"amount": "lots"}),
            "amount: must be a decimal number such as 1500.50",
        ),
        (
            json!({"amount": "1.001"}),
            "amount: has more decimal places than NGN allows (2)",
        ),
        (json!({"amount": "0"}), "amount: must be greater than zero"),
    ] {
        let reply = post(&env, path, Some(body.clone())).await;
        assert_refused(&reply, 400, message, "POST", path);
        let field = message.split(':').next().unwrap_or_default();
        assert_eq!(field_errors(&reply.body)[0].0, field, "{body}");
    }
    assert_eq!(
        refused(
            env.sandbox
                .fund_collection(STAGING_KEY, "order-1", Some(d("-5")))
                .unwrap_err()
        ),
        (400, "amount: must be greater than zero".to_owned())
    );
    let unknown = post(&env, "/_sandbox/collections/nope/fund", None).await;
    assert_refused(
        &unknown,
        404,
        "Collection not found: nope",
        "POST",
        "/_sandbox/collections/nope/fund",
    );
    let state = env.sandbox.state(STAGING_KEY).unwrap();
    assert_eq!(state.collections[0].paid_amount, d("0.00"));
    assert!(state.collections[0].fundings.is_empty());
}

#[tokio::test]
async fn an_expired_collection_is_announced_and_takes_no_funding() {
    let (env, client, receiver) = watched(&[("order-1", "5000"), ("order-2", "700")]).await;

    let path = "/_sandbox/collections/order-1/expire";
    let expired = post(&env, path, None).await;
    assert_eq!(expired.status, 200, "{}", expired.text);
    assert_eq!(expired.body["status"], "EXPIRED");
    assert_eq!(
        client
            .collections()
            .get("order-1")
            .await
            .unwrap()
            .status
            .as_str(),
        "EXPIRED"
    );
    let events = receiver.wait_for(1, WAIT).await;
    assert_eq!(events[0].json()["status"], "EXPIRED");
    assert_eq!(events[0].json()["reference"], "order-1");

    let message =
        "Collection order-1 is EXPIRED; only a PENDING or PARTIALLY_PAID collection can be funded";
    let fund = post(&env, "/_sandbox/collections/order-1/fund", None).await;
    assert_refused(
        &fund,
        409,
        message,
        "POST",
        "/_sandbox/collections/order-1/fund",
    );
    let again = post(&env, path, None).await;
    let message =
        "Collection order-1 is EXPIRED; only a PENDING or PARTIALLY_PAID collection can be expired";
    assert_refused(&again, 409, message, "POST", path);

    // Through the handle: expire, then a completed one cannot be expired.
    env.sandbox
        .fund_collection(STAGING_KEY, "order-2", None)
        .unwrap();
    assert_eq!(
        refused(env.sandbox.expire_collection(STAGING_KEY, "order-2").unwrap_err()),
        (
            409,
            "Collection order-2 is COMPLETED; only a PENDING or PARTIALLY_PAID collection can be expired"
                .to_owned()
        )
    );
    assert_eq!(
        refused(
            env.sandbox
                .expire_collection(STAGING_KEY, "order-9")
                .unwrap_err()
        ),
        (404, "Collection not found: order-9".to_owned())
    );
}

#[tokio::test]
async fn a_business_is_approved_or_rejected_by_hand_once() {
    let env = Env::start().await;
    let client = sdk_client(env.base_url(), STAGING_KEY);
    // `PENDING` at the end of the number keeps it under review for the
    // console to decide.
    let first = business(&client, "RC-1001-PENDING", true).await;
    let second = business(&client, "RC-1002-PENDING", true).await;
    let unsubmitted = business(&client, "RC-1003-PENDING", false).await;

    let path = format!("/_sandbox/businesses/{first}/approve");
    let approved = post(&env, &path, None).await;
    assert_eq!(approved.status, 200, "{}", approved.text);
    assert_eq!(approved.body["status"], "APPROVED");
    assert_eq!(approved.body["reason"], Value::Null);
    assert_eq!(approved.body["directors"][0]["name"], "Adaeze Okafor");
    let read = client.businesses().get(&first).await.unwrap();
    assert_eq!(read.status, BusinessStatus::Approved);

    let again = post(&env, &path, None).await;
    let message = format!(
        "Business {first} is APPROVED; only a submitted business awaiting a decision can be approved"
    );
    assert_refused(&again, 409, &message, "POST", &path);
    assert_eq!(
        refused(env.sandbox.reject_business(STAGING_KEY, &first, "late").unwrap_err()),
        (
            409,
            format!("Business {first} is APPROVED; only a submitted business awaiting a decision can be rejected")
        )
    );

    // Rejected with a reason, which wait_for_decision returns.
    let rejected = env
        .sandbox
        .reject_business(STAGING_KEY, &second, "  Director ID is unreadable ")
        .unwrap();
    assert_eq!(rejected.status, "REJECTED");
    let decided = client
        .businesses()
        .wait_for_decision(&second, WaitOptions::default().timeout(WAIT))
        .await
        .unwrap();
    assert_eq!(decided.status, BusinessStatus::Rejected);
    assert_eq!(
        decided.rejection_reason.as_deref(),
        Some("Director ID is unreadable")
    );

    // A reason is required; nothing changes without one.
    let third = business(&client, "RC-1004-PENDING", true).await;
    let path = format!("/_sandbox/businesses/{third}/reject");
    for body in [None, Some(json!({})), Some(json!({"reason": "   "}))] {
        let reply = post(&env, &path, body).await;
        assert_refused(&reply, 400, "reason: is required", "POST", &path);
        assert_eq!(
            field_errors(&reply.body),
            [("reason".to_owned(), "is required".to_owned())]
        );
    }
    let typed = post(&env, &path, Some(json!({"reason": 7}))).await;
    assert_refused(&typed, 400, "reason: must be a string", "POST", &path);
    assert_eq!(
        client.businesses().get(&third).await.unwrap().status,
        BusinessStatus::Submitted
    );

    let path = format!("/_sandbox/businesses/{unsubmitted}/approve");
    let early = post(&env, &path, None).await;
    let message = format!(
        "Business {unsubmitted} is PENDING (not submitted: it needs a director and a UBO); only a submitted business awaiting a decision can be approved"
    );
    assert_refused(&early, 409, &message, "POST", &path);
    let unknown = post(&env, "/_sandbox/businesses/biz_NOPE/approve", None).await;
    assert_refused(
        &unknown,
        404,
        "Business not found: biz_NOPE",
        "POST",
        "/_sandbox/businesses/biz_NOPE/approve",
    );
    assert_eq!(
        refused(
            env.sandbox
                .approve_business(PRODUCTION_KEY, &third)
                .unwrap_err()
        ),
        (404, format!("Business not found: {third}"))
    );
    let approved = env.sandbox.approve_business(STAGING_KEY, &third).unwrap();
    assert_eq!(
        (approved.status.as_str(), approved.reason),
        ("APPROVED", None)
    );
    assert_eq!(
        client.businesses().get(&third).await.unwrap().status,
        BusinessStatus::Approved
    );
}

#[tokio::test]
async fn a_redelivered_webhook_reaches_the_receiver_again() {
    let (env, _client, receiver) = watched(&[("order-1", "5000")]).await;
    env.sandbox
        .fund_collection(STAGING_KEY, "order-1", None)
        .unwrap();
    receiver.wait_for(1, WAIT).await;
    env.sandbox.wait_for_webhook_deliveries(1, WAIT).await;

    let state = env.sandbox.state(STAGING_KEY).unwrap();
    let first = &state.webhooks[0];
    assert_eq!(first.event, "COMPLETED");
    assert_eq!(first.payment_reference, "order-1");
    assert_eq!(first.status, "delivered");
    assert_eq!(first.response_status, Some(200));
    assert_eq!(first.url, receiver.url());

    let path = format!("/_sandbox/webhooks/{}/redeliver", first.delivery_id);
    let again = post(&env, &path, None).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_ne!(again.body["deliveryId"], json!(first.delivery_id));
    let received = receiver.wait_for(2, WAIT).await;
    assert_eq!(received.len(), 2);
    assert_eq!(received[1].body, received[0].body);
    // And once more through the handle, from a thread outside the runtime.
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                env.sandbox
                    .redeliver_webhook(STAGING_KEY, &first.delivery_id)
            })
            .join()
            .expect("no panic outside the runtime")
            .unwrap();
    });
    assert_eq!(receiver.wait_for(3, WAIT).await[2].body, received[0].body);

    let unknown = post(&env, "/_sandbox/webhooks/whd_999999/redeliver", None).await;
    assert_refused(
        &unknown,
        404,
        "Webhook delivery not found: whd_999999",
        "POST",
        "/_sandbox/webhooks/whd_999999/redeliver",
    );
    assert_eq!(
        refused(
            env.sandbox
                .redeliver_webhook(PRODUCTION_KEY, &first.delivery_id)
                .unwrap_err()
        ),
        (
            404,
            format!("Webhook delivery not found: {}", first.delivery_id)
        )
    );
}

#[tokio::test]
async fn balances_are_set_and_a_reset_restores_the_opening_state() {
    let (env, client, receiver) = watched(&[]).await;

    let set = control(
        &env,
        Method::PUT,
        "/_sandbox/balances/GHS",
        STAGING_KEY,
        Some(json!({"amount": "1250.75"})),
    )
    .await;
    assert_eq!(set.status, 200, "{}", set.text);
    assert_eq!(set.body, json!({"currency": "GHS", "amount": "1250.75"}));
    assert_eq!(
        client.wallet().balance(Currency::Ghs).await.unwrap().amount,
        d("1250.75")
    );
    let zero = env
        .sandbox
        .set_balance(STAGING_KEY, Currency::Usd, d("0"))
        .unwrap();
    assert_eq!(zero.amount.to_string(), "0.00");
    assert_eq!(
        refused(
            env.sandbox
                .set_balance(STAGING_KEY, Currency::Ngn, d("0.001"))
                .unwrap_err()
        ),
        (
            400,
            "amount: has more decimal places than NGN allows (2)".to_owned()
        )
    );
    assert_eq!(
        client.wallet().balance(Currency::Usd).await.unwrap().amount,
        d("0")
    );

    for (path, body, message) in [
        (
            "/_sandbox/balances/XYZ",
            json!({"amount": "1"}),
            "Invalid currency: XYZ",
        ),
        (
            "/_sandbox/balances/UGX",
            json!({"amount": "1.5"}),
            "amount: has more decimal places than UGX allows (0)",
        ),
        (
            "/_sandbox/balances/NGN",
            json!({"amount": "-1"}),
            "amount: must be a decimal number such as 1500.50",
        ),
        ("/_sandbox/balances/NGN", json!({}), "amount: is required"),
        (
            "/_sandbox/balances/NGN",
            json!({"amount": "1000000000000000.01"}),
            "amount: must be at most 1000000000000000",
        ),
    ] {
        let reply = control(&env, Method::PUT, path, STAGING_KEY, Some(body)).await;
        assert_refused(&reply, 400, message, "PUT", path);
    }
    assert_eq!(
        client.wallet().balance(Currency::Ngn).await.unwrap().amount,
        d("5000000")
    );

    collection(&client, "order-1", "5000").await;
    let document = business(&client, "RC-2001", false).await;
    let link = env.sandbox.business_documents(&document).unwrap()[0]
        .url
        .clone();
    env.sandbox
        .set_payout_settlement(STAGING_KEY, PayoutSettlement::Manual)
        .unwrap();
    let reset = post(&env, "/_sandbox/reset", None).await;
    assert_eq!(reset.status, 200, "{}", reset.text);
    assert_eq!(reset.body["collections"], json!([]));
    assert_eq!(reset.body["requests"], json!([]));
    assert_eq!(reset.body["balances"], starting_balances());
    assert!(client.collections().get("order-1").await.is_err());
    assert_eq!(reset.body["businesses"], json!([]));
    assert_eq!(
        reset.body["settings"],
        json!({"payoutSettlement": "manual"})
    );
    let document_path = link.strip_prefix(env.base_url()).unwrap_or_default();
    assert_eq!(env.get(document_path).await.status, 404);
    // The webhook URL stays: a new collection's funding still reaches it.
    collection(&client, "order-1", "10").await;
    let after = env.sandbox.reset(STAGING_KEY).unwrap();
    assert!(after.collections.is_empty());
    collection(&client, "order-2", "10").await;
    env.sandbox
        .fund_collection(STAGING_KEY, "order-2", None)
        .unwrap();
    assert_eq!(
        receiver.wait_for(1, WAIT).await[0].json()["reference"],
        "order-2"
    );
}
