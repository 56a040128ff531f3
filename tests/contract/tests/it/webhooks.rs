//! Webhook events from the sandbox, parsed and confirmed by the SDK:
//! `webhook::verify` confirms a real event and refuses forged ones.

use std::time::Duration;

use crossborder::webhook::{self, Classification, EventStatus, Unconfirmed, Verdict, WebhookEvent};
use crossborder::{
    types::{CollectionRequest, SimulateFundingRequest, Transaction, TransactionStatus},
    Currency,
};
use crossborder_contract_tests::{
    collection, d, fund, ngn_payout, quote_of, staging, Env, WebhookReceiver, STAGING_KEY,
};

/// The transaction of a confirmed verdict.
fn confirmed_in(verdict: Verdict) -> Transaction {
    match verdict {
        Verdict::Confirmed(confirmed) => confirmed.transaction,
        other => panic!("not confirmed: {other:?}"),
    }
}

#[tokio::test]
async fn verify_confirms_the_sandbox_events_and_refuses_forged_ones() {
    let (_env, client) = staging().await;
    let receiver = WebhookReceiver::start().await;
    client.webhooks().set_url(receiver.url()).await.unwrap();

    let memo = collection(&client, "order-v1", "50000").await;
    fund(&client, &memo, "20000", "v-1").await;
    let received = receiver.wait_for(1, Duration::from_secs(5)).await;
    assert_eq!(received.len(), 1);

    // The sandbox's partial-payment event reads as partially paid and is
    // confirmed.
    let partial = WebhookEvent::parse(&received[0].body).unwrap();
    assert_eq!(partial.reference, "order-v1");
    assert_eq!(partial.memo.as_deref(), Some(memo.as_str()));
    assert_eq!(partial.status, EventStatus::Flag(false));
    assert_eq!(partial.classify(), Classification::PartiallyPaid);
    let confirmed = confirmed_in(webhook::verify(&client, &partial).await);
    assert_eq!(confirmed.status, TransactionStatus::PartiallyPaid);
    assert_eq!(confirmed.paid_amount, Some(d("20000")));
    assert_eq!(confirmed.payment_reference, "order-v1");

    // A forged reference.
    let forged =
        WebhookEvent::parse(r#"{"reference": "order-nope", "status": true, "paidAmount": 50000}"#)
            .unwrap();
    match webhook::verify(&client, &forged).await {
        Verdict::Unconfirmed(error @ Unconfirmed::UnknownReference { .. }) => {
            assert_eq!(
                error.to_string(),
                "no transaction has the event's reference order-nope"
            );
            assert!(error.transaction().is_none());
        }
        other => panic!("{other:?}"),
    }

    // A forged status: completed while the collection is partly paid.
    let forged = WebhookEvent::parse(
        r#"{"reference": "order-v1", "status": true, "paidAmount": 20000, "remainingAmount": 0}"#,
    )
    .unwrap();
    match webhook::verify(&client, &forged).await {
        Verdict::Unconfirmed(error @ Unconfirmed::StatusMismatch { .. }) => {
            assert_eq!(
                error.to_string(),
                "the event says true but transaction order-v1 is PARTIALLY_PAID"
            );
            let now = error.transaction().unwrap();
            assert_eq!(now.status, TransactionStatus::PartiallyPaid);
        }
        other => panic!("{other:?}"),
    }
    let forged =
        WebhookEvent::parse(r#"{"reference": "order-v1", "status": "COMPLETED"}"#).unwrap();
    assert!(matches!(
        webhook::verify(&client, &forged).await,
        Verdict::Unconfirmed(Unconfirmed::StatusMismatch {
            claim: Classification::Completed { overpaid: None },
            ..
        })
    ));

    // A forged paid amount with the right status.
    let forged = WebhookEvent::parse(
        r#"{"reference": "order-v1", "status": false, "paidAmount": "49999.99", "remainingAmount": "0.01"}"#,
    )
    .unwrap();
    match webhook::verify(&client, &forged).await {
        Verdict::Unconfirmed(error @ Unconfirmed::PaidAmountMismatch { .. }) => {
            assert_eq!(
                error.to_string(),
                "the event says 49999.99 paid but transaction order-v1 has 20000 paid"
            );
            assert_eq!(error.transaction().unwrap().paid_amount, Some(d("20000")));
        }
        other => panic!("{other:?}"),
    }
    // The same amount written otherwise is the same amount.
    let same = WebhookEvent::parse(
        r#"{"paymentReference": "order-v1", "status": "PARTIALLY_PAID", "paidAmount": "20000.00"}"#,
    )
    .unwrap();
    assert_eq!(
        confirmed_in(webhook::verify(&client, &same).await).paid_amount,
        Some(d("20000"))
    );

    // The rest is paid: the completed event is confirmed, and the old
    // partial event is superseded (carrying today's state).
    fund(&client, &memo, "30000", "v-2").await;
    let received = receiver.wait_for(2, Duration::from_secs(5)).await;
    let completed = WebhookEvent::parse(&received[1].body).unwrap();
    assert_eq!(
        completed.classify(),
        Classification::Completed { overpaid: None }
    );
    let confirmed = confirmed_in(webhook::verify(&client, &completed).await);
    assert_eq!(confirmed.status, TransactionStatus::Completed);
    match webhook::verify(&client, &partial).await {
        Verdict::Superseded(superseded) => {
            let transaction = superseded.transaction;
            assert_eq!(transaction.status, TransactionStatus::Completed);
            assert_eq!(transaction.paid_amount, Some(d("50000")));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn verify_refuses_a_payouts_reference_and_reports_read_failures() {
    let (env, client) = staging().await;
    client
        .payouts()
        .create(&ngn_payout("payout-v1", "100"))
        .await
        .unwrap();
    let forged = WebhookEvent::parse(r#"{"reference": "payout-v1", "status": true}"#).unwrap();
    match webhook::verify(&client, &forged).await {
        Verdict::Unconfirmed(error @ Unconfirmed::NotACollection { .. }) => {
            assert_eq!(
                error.to_string(),
                "transaction payout-v1 is not a collection"
            );
            assert_eq!(
                error.transaction().unwrap().kind,
                Some(crossborder::types::TransactionType::Payout)
            );
        }
        other => panic!("{other:?}"),
    }

    // A client whose key the sandbox does not know confirms nothing.
    let stranger = env.client("test_not_a_known_key_0000");
    let event = WebhookEvent::parse(r#"{"reference": "order-1", "status": true}"#).unwrap();
    match webhook::verify(&stranger, &event).await {
        Verdict::Unconfirmed(
            error @ Unconfirmed::Request(crossborder::Error::InvalidApiKey { .. }),
        ) => {
            assert_eq!(
                error.to_string(),
                "could not read the transaction: Invalid api key (HTTP 401)"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_failed_claim_is_confirmed_by_an_expired_collection() {
    let (env, client) = staging().await;
    collection(&client, "order-lapsed", "5000").await;
    env.clock.advance(Duration::from_secs(24 * 3600 + 1));
    let event = WebhookEvent::parse(
        r#"{"reference": "order-lapsed", "status": false, "paidAmount": 0, "message": "Collection expired"}"#,
    )
    .unwrap();
    assert_eq!(
        event.classify(),
        Classification::Failed {
            reason: "Collection expired".into()
        }
    );
    let confirmed = confirmed_in(webhook::verify(&client, &event).await);
    assert_eq!(confirmed.status, TransactionStatus::Expired);
    // An unknown claim is confirmed only by its own status word.
    let pending =
        WebhookEvent::parse(r#"{"reference": "order-lapsed", "status": "PENDING"}"#).unwrap();
    assert!(matches!(
        webhook::verify(&client, &pending).await,
        Verdict::Unconfirmed(Unconfirmed::StatusMismatch {
            claim: Classification::Unknown,
            ..
        })
    ));
    let expired =
        WebhookEvent::parse(r#"{"reference": "order-lapsed", "status": "EXPIRED"}"#).unwrap();
    assert_eq!(
        confirmed_in(webhook::verify(&client, &expired).await).status,
        TransactionStatus::Expired
    );
}

#[tokio::test]
async fn set_url_refusals_are_the_sandboxs_own() {
    use crossborder_contract_tests::{assert_error_body, field_errors, PRODUCTION_KEY};

    let env = Env::start().await;
    let cases = [
        (
            STAGING_KEY,
            "/relative/path",
            Some("must be an absolute http or https URL"),
        ),
        (
            STAGING_KEY,
            "shop.example/hooks",
            Some("must be an absolute http or https URL"),
        ),
        (STAGING_KEY, "http://shop.example/hooks", None),
        (
            PRODUCTION_KEY,
            "/relative/path",
            Some("must be an absolute http or https URL"),
        ),
        (
            PRODUCTION_KEY,
            "http://shop.example/hooks",
            Some("must be an https URL with a production (live_) key, unless its host is loopback"),
        ),
        (
            PRODUCTION_KEY,
            "http://10.0.0.7:8080/hooks",
            Some("must be an https URL with a production (live_) key, unless its host is loopback"),
        ),
        (PRODUCTION_KEY, "https://shop.example/hooks", None),
        (PRODUCTION_KEY, "http://127.0.0.1:9000/hooks", None),
        (PRODUCTION_KEY, "http://localhost:9000/hooks", None),
        (PRODUCTION_KEY, "http://[::1]:9000/hooks", None),
    ];
    for (key, url, refusal) in cases {
        let sdk = env.client(key).webhooks().set_url(url).await;
        let reply = env
            .raw(
                reqwest::Method::PUT,
                "/api/set-webhook",
                Some(key),
                Some(&serde_json::json!({ "webhookUrl": url })),
            )
            .await;
        match refusal {
            Some(message) => {
                let error = sdk.unwrap_err();
                assert_eq!(
                    error.to_string(),
                    format!("invalid request: webhookUrl: {message}"),
                    "{key} {url}"
                );
                assert_error_body(
                    &reply,
                    400,
                    &format!("webhookUrl: {message}"),
                    "PUT",
                    "/api/set-webhook",
                );
                assert_eq!(
                    field_errors(&reply.body),
                    [("webhookUrl".to_owned(), message.to_owned())]
                );
            }
            None => {
                assert_eq!(
                    sdk.unwrap().message,
                    "Webhook URL set successfully",
                    "{key} {url}"
                );
                assert_eq!(reply.status, 200, "{key} {url}: {}", reply.text);
            }
        }
    }
}

/// A converting collection funded in its toCurrency (ASSUMPTIONS.md A14):
/// an amount that would pay nothing is refused, and the least one that
/// pays something makes an event the SDK reads as a partial payment and
/// confirms.
#[tokio::test]
async fn to_currency_funding_pays_something_or_is_refused() {
    let (_env, client) = staging().await;
    let receiver = WebhookReceiver::start().await;
    client.webhooks().set_url(receiver.url()).await.unwrap();
    let quote = quote_of(&client, Currency::Usd, Currency::Ngn, "100").await;
    let request = CollectionRequest::new("order-fx", d("100"), Currency::Usd, Currency::Ngn)
        .rate_key(quote.rate_key);
    let memo = client
        .collections()
        .create(&request)
        .await
        .unwrap()
        .pay_reference
        .unwrap();

    let tiny = SimulateFundingRequest::new(Currency::Ngn, d("1"), memo.as_str(), "fx-1");
    let error = client.sandbox().simulate_funding(&tiny).await.unwrap_err();
    assert_eq!(error.status(), Some(400));
    assert_eq!(
        error.to_string(),
        "HTTP 400: amount: must be at least 7.66 NGN, the least that pays 0.01 USD of \
         collection order-fx at its rate of 1530.25 NGN per USD"
    );

    let least = SimulateFundingRequest::new(Currency::Ngn, d("7.66"), memo.as_str(), "fx-1");
    client.sandbox().simulate_funding(&least).await.unwrap();
    let received = receiver.wait_for(1, Duration::from_secs(5)).await;
    assert_eq!(received.len(), 1);
    let event = WebhookEvent::parse(&received[0].body).unwrap();
    assert_eq!(event.paid_amount, Some(d("0.01")));
    assert_eq!(event.classify(), Classification::PartiallyPaid);
    let confirmed = confirmed_in(webhook::verify(&client, &event).await);
    assert_eq!(confirmed.status, TransactionStatus::PartiallyPaid);
    assert_eq!(confirmed.paid_amount, Some(d("0.01")));
}
