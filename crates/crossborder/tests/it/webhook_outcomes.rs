//! `webhook::verify`'s verdicts against a mock of the API: status words
//! the SDK does not know (judged by the amounts, or mapped with
//! `StatusWords`), a negative remainder read as an overpayment, an event
//! superseded by a later change, `"reference": null` next to
//! `paymentReference`, and a failed read.

use crossborder::webhook::{
    verify, verify_with, Classification, StatusMeaning, StatusWords, Unconfirmed, Verdict,
    WebhookEvent,
};
use crossborder::{types::TransactionStatus, Decimal};
use crossborder_testkit::within;
use wiremock::ResponseTemplate;

use crate::webhook_mock;

use webhook_mock::{answering, api, transaction};

fn d(text: &str) -> Decimal {
    Decimal::from_str_exact(text).unwrap()
}

/// Why `verdict` is not a confirmation; a panic naming `case` when it is
/// one.
fn unconfirmed(verdict: Verdict, case: &str) -> Unconfirmed {
    match verdict {
        Verdict::Unconfirmed(why) => why,
        other => panic!("{case}: {other:?}"),
    }
}

fn event(body: &str) -> WebhookEvent {
    WebhookEvent::parse(body).unwrap_or_else(|error| panic!("{body}: {error}"))
}

const COMPLETED: &str =
    r#"{"reference": "order-1", "status": true, "paidAmount": 50000, "remainingAmount": 0}"#;
const PARTIAL: &str = r#"{"reference": "order-1", "status": false, "paidAmount": 20000, "remainingAmount": 30000, "message": "Partial payment received"}"#;

#[tokio::test]
async fn an_unknown_transaction_status_is_judged_by_its_amounts() {
    for word in ["SUCCESSFUL", "PAID", "success", ""] {
        // Paid in full: the completion is confirmed.
        let (_server, client) = api(transaction(word, "50000")).await;
        match verify(&client, &event(COMPLETED)).await {
            Verdict::Confirmed(confirmed) => {
                assert_eq!(
                    confirmed.change,
                    Classification::Completed { overpaid: None }
                );
                assert_eq!(
                    confirmed.transaction.status,
                    TransactionStatus::Unknown(word.into())
                );
                assert_eq!(confirmed.transaction.paid_amount, Some(d("50000")));
            }
            other => panic!("{word:?}: {other:?}"),
        }
        // Paid in part: the partial payment is confirmed, a completion is
        // not.
        let (_server, client) = api(transaction(word, "20000")).await;
        match verify(&client, &event(PARTIAL)).await {
            Verdict::Confirmed(confirmed) => {
                assert_eq!(confirmed.change, Classification::PartiallyPaid)
            }
            other => panic!("{word:?}: {other:?}"),
        }
        let why = unconfirmed(verify(&client, &event(COMPLETED)).await, word);
        assert!(matches!(why, Unconfirmed::StatusMismatch { .. }), "{why:?}");
        assert_eq!(
            why.to_string(),
            format!("the event says true but transaction order-1 is {word}")
        );
        // Nothing paid: the amounts cannot confirm anything, and the
        // caller gets the transaction in a typed verdict.
        let (_server, client) = api(transaction(word, "0")).await;
        let claim = r#"{"reference": "order-1", "status": true}"#;
        let why = unconfirmed(verify(&client, &event(claim)).await, word);
        assert!(
            matches!(
                why,
                Unconfirmed::UnknownStatus {
                    claim: Classification::Completed { overpaid: None },
                    ..
                }
            ),
            "{why:?}"
        );
        assert_eq!(
            why.to_string(),
            format!(
                "transaction order-1 has the status {word:?}, which this SDK does not know, \
                 and its amounts do not confirm the event"
            )
        );
        let read = why.transaction().unwrap();
        assert_eq!(read.status, TransactionStatus::Unknown(word.into()));
        assert_eq!(read.paid_amount, Some(Decimal::ZERO));
    }
}

#[tokio::test]
async fn an_unknown_event_word_is_read_from_the_events_amounts() {
    let (_server, client) = api(transaction("COMPLETED", "50000")).await;
    // An empty status with the amounts of a completion claims completion.
    let empty = event(
        r#"{"reference": "order-1", "status": "", "paidAmount": 50000, "remainingAmount": 0}"#,
    );
    assert_eq!(
        empty.classify(),
        Classification::Completed { overpaid: None }
    );
    assert!(matches!(
        verify(&client, &empty).await,
        Verdict::Confirmed(_)
    ));
    // Without amounts it claims nothing, and is not confirmed.
    let bare = event(r#"{"reference": "order-1", "status": ""}"#);
    assert_eq!(bare.classify(), Classification::Unknown);
    let why = unconfirmed(verify(&client, &bare).await, "no amounts");
    assert!(matches!(why, Unconfirmed::StatusMismatch { .. }), "{why:?}");
    assert_eq!(
        why.to_string(),
        "the event says  but transaction order-1 is COMPLETED"
    );
    assert_eq!(
        why.transaction().unwrap().status,
        TransactionStatus::Completed
    );
    // The words the SDK knows for events, in any case.
    for word in ["SUCCESSFUL", "PAID", "success"] {
        let known = event(&format!(
            r#"{{"reference": "order-1", "status": "{word}"}}"#
        ));
        assert_eq!(
            known.classify(),
            Classification::Completed { overpaid: None }
        );
        assert!(
            matches!(verify(&client, &known).await, Verdict::Confirmed(_)),
            "{word}"
        );
    }
}

#[tokio::test]
async fn status_words_map_the_services_words_once_known() {
    // Nothing paid and a word nobody knows: not confirmable...
    let (_server, client) = api(transaction("SETTLED", "0")).await;
    let completed = event(r#"{"reference": "order-1", "status": "SETTLED"}"#);
    let claimed = event(r#"{"reference": "order-1", "status": true}"#);
    assert!(matches!(
        verify(&client, &claimed).await,
        Verdict::Unconfirmed(Unconfirmed::UnknownStatus { .. })
    ));
    // ...until the caller says what it means: then the word is taken at
    // its word, in the transaction and in the event.
    let words = StatusWords::new().with("settled", StatusMeaning::Completed);
    for sent in [&claimed, &completed] {
        match verify_with(&client, sent, &words).await {
            Verdict::Confirmed(confirmed) => assert_eq!(
                confirmed.change,
                Classification::Completed { overpaid: None }
            ),
            other => panic!("{other:?}"),
        }
    }
    // A failure word: unmapped, it only matches itself and says nothing;
    // mapped, it is a confirmed failure with the event's reason.
    let (_server, client) = api(transaction("DECLINED", "0")).await;
    let declined =
        event(r#"{"reference": "order-1", "status": "DECLINED", "message": "Card declined"}"#);
    match verify(&client, &declined).await {
        Verdict::Confirmed(confirmed) => assert_eq!(confirmed.change, Classification::Unknown),
        other => panic!("{other:?}"),
    }
    let words = StatusWords::new().with("DECLINED", StatusMeaning::Failed);
    assert_eq!(
        declined.classify_with(&words),
        Classification::Failed {
            reason: "Card declined".into()
        }
    );
    match verify_with(&client, &declined, &words).await {
        Verdict::Confirmed(confirmed) => assert_eq!(
            confirmed.change,
            Classification::Failed {
                reason: "Card declined".into()
            }
        ),
        other => panic!("{other:?}"),
    }
    // A later mapping of the same word wins.
    let words = words.with(" declined ", StatusMeaning::PartiallyPaid);
    assert_eq!(
        words.meaning("DECLINED"),
        Some(StatusMeaning::PartiallyPaid)
    );
}

#[tokio::test]
async fn a_negative_remainder_is_a_completion_and_an_overpayment() {
    // The sandbox's form: remainingAmount = amount - paidAmount, negative.
    let over = event(
        r#"{"reference": "order-1", "status": true, "amount": 50000, "paidAmount": 55000.5, "remainingAmount": -5000.5}"#,
    );
    assert_eq!(over.remaining_amount, Some(d("-5000.5")));
    assert_eq!(over.remaining(), Some(d("-5000.5")));
    assert_eq!(
        over.classify(),
        Classification::Completed {
            overpaid: Some(d("5000.5"))
        }
    );
    // Derived when not sent; a numeric string too.
    let derived = event(
        r#"{"reference": "order-1", "status": "COMPLETED", "amount": "100", "paidAmount": 130}"#,
    );
    assert_eq!(derived.remaining(), Some(d("-30")));
    assert_eq!(
        derived.classify(),
        Classification::Completed {
            overpaid: Some(d("30"))
        }
    );
    let text = event(r#"{"reference": "order-1", "status": true, "remainingAmount": "-0.01"}"#);
    assert_eq!(
        text.classify(),
        Classification::Completed {
            overpaid: Some(d("0.01"))
        }
    );

    // verify takes the overpayment from the transaction, not the event.
    let (_server, client) = api(transaction("COMPLETED", "55000.5")).await;
    match verify(&client, &over).await {
        Verdict::Confirmed(confirmed) => {
            assert_eq!(confirmed.overpaid(), Some(d("5000.5")));
            assert_eq!(confirmed.transaction.remaining_amount(), Some(d("-5000.5")));
            assert_eq!(
                confirmed.change,
                Classification::Completed {
                    overpaid: Some(d("5000.5"))
                }
            );
        }
        other => panic!("{other:?}"),
    }
    // A completion event that arrives after a further payment (which posts
    // no event of its own) is still confirmed, with today's overpayment.
    match verify(&client, &event(COMPLETED)).await {
        Verdict::Confirmed(confirmed) => {
            assert_eq!(confirmed.overpaid(), Some(d("5000.5")));
            assert_eq!(confirmed.transaction.paid_amount, Some(d("55000.5")));
        }
        other => panic!("{other:?}"),
    }
    // Exactly paid: no overpayment.
    let (_server, client) = api(transaction("COMPLETED", "50000")).await;
    match verify(&client, &event(COMPLETED)).await {
        Verdict::Confirmed(confirmed) => assert_eq!(confirmed.overpaid(), None),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_partial_payment_overtaken_by_the_next_funding_is_superseded() {
    let (_server, client) = api(transaction("COMPLETED", "50000")).await;
    match verify(&client, &event(PARTIAL)).await {
        Verdict::Superseded(superseded) => {
            assert_eq!(superseded.claim, Classification::PartiallyPaid);
            assert_eq!(superseded.transaction.status, TransactionStatus::Completed);
        }
        other => panic!("{other:?}"),
    }
    // Overtaken by a second partial payment: superseded too.
    let (_server, client) = api(transaction("PARTIALLY_PAID", "35000")).await;
    let verdict = verify(&client, &event(PARTIAL)).await;
    assert!(matches!(verdict, Verdict::Superseded(_)), "{verdict:?}");
    assert_eq!(verdict.transaction().unwrap().paid_amount, Some(d("35000")));
    assert!(verdict.confirmed().is_none());
    // A partial payment of more than the service has is never true.
    let more = event(
        r#"{"reference": "order-1", "status": false, "paidAmount": 40000, "remainingAmount": 10000}"#,
    );
    let why = unconfirmed(verify(&client, &more).await, "more paid");
    assert!(
        matches!(why, Unconfirmed::PaidAmountMismatch { .. }),
        "{why:?}"
    );
    assert_eq!(
        why.to_string(),
        "the event says 40000 paid but transaction order-1 has 35000 paid"
    );
    // Lapsed since.
    let (_server, client) = api(transaction("EXPIRED", "20000")).await;
    assert!(matches!(
        verify(&client, &event(PARTIAL)).await,
        Verdict::Superseded(_)
    ));
    // A completion is never superseded: against an open collection it is
    // not confirmed.
    let (_server, client) = api(transaction("PARTIALLY_PAID", "50000")).await;
    assert!(matches!(
        verify(&client, &event(COMPLETED)).await,
        Verdict::Unconfirmed(Unconfirmed::StatusMismatch { .. })
    ));
}

#[test]
fn a_null_reference_never_hides_payment_reference() {
    for body in [
        r#"{"reference": null, "paymentReference": "order-1", "status": true}"#,
        r#"{"paymentReference": "order-1", "reference": null, "status": true}"#,
        r#"{"reference": null, "payment_reference": "order-1", "status": true}"#,
    ] {
        assert_eq!(event(body).reference, "order-1", "{body}");
    }
    let memo = event(r#"{"reference": "r", "memo": null, "payRefrence": "PAY-1", "status": true}"#);
    assert_eq!(memo.memo.as_deref(), Some("PAY-1"));
    let remaining =
        event(r#"{"reference": "r", "status": true, "remainingAmount": null, "remaining": -2}"#);
    assert_eq!(remaining.remaining_amount, Some(d("-2")));
    // A null alone is still absent.
    assert_eq!(
        WebhookEvent::parse(r#"{"reference": null, "paymentReference": null, "status": true}"#)
            .unwrap_err()
            .to_string(),
        "`reference` is required"
    );
}

#[tokio::test]
async fn a_failed_read_is_unconfirmed_with_the_clients_error() {
    let (_server, client) = answering(ResponseTemplate::new(503).set_body_string("busy")).await;
    let verdict = verify(&client, &event(COMPLETED)).await;
    match &verdict {
        Verdict::Unconfirmed(Unconfirmed::Request(error)) => assert_eq!(error.status(), Some(503)),
        other => panic!("{other:?}"),
    }
    assert!(verdict.transaction().is_none());
}

/// A reconciler tells a final state as `verify` does: a word nobody knows
/// with the amount paid in full is completed, a word mapped with
/// `StatusWords` is what the caller says, and anything else is still open.
#[tokio::test]
async fn a_reconciler_reads_status_words_as_verify_does() {
    use std::time::Duration;

    use crossborder::webhook::{Reconciler, Source};
    use crossborder::WaitOptions;

    let polling = WaitOptions::default()
        .timeout(Duration::from_millis(300))
        .initial_interval(Duration::from_millis(20))
        .max_interval(Duration::from_millis(50));
    let settle = |client, words: Option<StatusWords>| async move {
        let mut reconciler = Reconciler::new(client)
            .grace(Duration::from_secs(3600))
            .polling(polling);
        if let Some(words) = words {
            reconciler = reconciler.status_words(words);
        }
        reconciler.watch("order-1");
        assert!(reconciler.notifier().notify(&event(COMPLETED)));
        within(Duration::from_secs(10), reconciler.next())
            .await
            .unwrap()
    };
    let (_server, client) = api(transaction("SUCCESSFUL", "50000")).await;
    let done = settle(client, None).await;
    assert_eq!(done.source, Source::Event);
    assert_eq!(
        done.result.unwrap().status,
        TransactionStatus::Unknown("SUCCESSFUL".into())
    );

    let (_server, client) = api(transaction("SETTLED", "0")).await;
    let words = StatusWords::new().with("SETTLED", StatusMeaning::Completed);
    let done = settle(client, Some(words)).await;
    assert_eq!(done.source, Source::Event);

    // Unmapped and unpaid: the event does not settle it, and with a grace
    // period of zero polling gives up at its deadline with the last state.
    let (_server, client) = api(transaction("SETTLED", "0")).await;
    let mut reconciler = Reconciler::new(client)
        .grace(Duration::ZERO)
        .polling(polling);
    reconciler.watch("order-1");
    let done = within(Duration::from_secs(10), reconciler.next())
        .await
        .unwrap();
    assert_eq!(done.source, Source::Polling);
    match done.result {
        Err(crossborder::Error::WaitTimeout { last }) => {
            assert_eq!(last.status, TransactionStatus::Unknown("SETTLED".into()))
        }
        other => panic!("{other:?}"),
    }
}
