//! `create_new` (`crossborder-ledger`'s send, under `__private`): one
//! send with no read before it, and a read only when the send is refused
//! with 409 or its outcome is unknown.

use crate::common;

use common::dec;
use crossborder::__private::{create_new, Created};
use crossborder::types::{FiatCurrency, PayoutRequest, TransactionType};
use crossborder::Currency;
use crossborder_testkit::fixtures::ngn_bank;
use crossborder_testkit::{sdk_client, TestSandbox};

#[tokio::test]
async fn a_new_payout_is_sent_once_and_a_taken_session_id_is_read_not_paid_again() {
    let sandbox = TestSandbox::start().await;
    let client = sdk_client(sandbox.base_url(), TestSandbox::KEY).unwrap();
    let payout = PayoutRequest::pay(dec("2500.00"), FiatCurrency::Ngn, ngn_bank())
        .with_session_id("invoice-81");

    let Created::Sent(receipt) = create_new(&client, &payout).await.unwrap() else {
        panic!("a new session id is sent");
    };
    assert_eq!(receipt.session_id, "invoice-81");

    // Another request under the same session id: the API answers 409, the
    // payout made is read and returned, and nothing more is paid.
    let other = PayoutRequest::pay(dec("10.00"), FiatCurrency::Ngn, ngn_bank())
        .with_session_id("invoice-81");
    let Created::Found(found) = create_new(&client, &other).await.unwrap() else {
        panic!("a taken session id is read");
    };
    assert_eq!(found.payment_reference, "invoice-81");
    assert_eq!(found.kind, Some(TransactionType::Payout));
    assert_eq!(found.amount, dec("2500.00"));
    let read = client.payouts().get("invoice-81").await.unwrap();
    assert_eq!(read.transaction_id, found.transaction_id);
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(balance.amount, dec("4997500.00"));

    // A request the SDK refuses is not sent: the violation, nothing read.
    let invalid =
        PayoutRequest::pay(dec("0"), FiatCurrency::Ngn, ngn_bank()).with_session_id("invoice-82");
    let error = create_new(&client, &invalid).await.unwrap_err();
    assert!(
        matches!(error, crossborder::Error::Validation(_)),
        "{error:?}"
    );
    assert!(client
        .payouts()
        .get("invoice-82")
        .await
        .unwrap_err()
        .is_not_found());
}
