//! `payouts().create_or_get`: a payout made once per session id, whatever
//! happens to the connection, and the errors that go with it
//! (`Error::is_not_found`, `Error::MissingField`, `Error::QuoteExpiredUnpaid`).

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use common::mock::{self, ok, refusal, Answers};
use common::{dec, payout_json, setup, transaction_json, transaction_json_without};
use crossborder::{
    types::PayoutRequest, types::Quote, types::QuoteRequest, types::Transaction,
    types::TransactionStatus, types::TransactionType, Client, Currency, Error, Outcome,
    RetryPolicy,
};
use crossborder_sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use crossborder_testkit::fixtures::ngn_bank;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use wiremock::ResponseTemplate;

/// A loopback proxy in front of the sandbox that forwards every request
/// (one per connection) and answers it, except the first `POST
/// /v1/api/payout`: that one reaches the sandbox, which applies it, and
/// its connection is then closed without an answer.
struct CuttingProxy {
    origin: String,
    payout_posts: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl CuttingProxy {
    async fn start(upstream: std::net::SocketAddr) -> CuttingProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let payout_posts = Arc::new(AtomicUsize::new(0));
        let posts = payout_posts.clone();
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let posts = posts.clone();
                tokio::spawn(async move {
                    let _ = forward(client, upstream, &posts).await;
                });
            }
        });
        CuttingProxy {
            origin,
            payout_posts,
            task,
        }
    }
}

impl Drop for CuttingProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Forwards one request of `client` to `upstream` (asking it to close the
/// connection after answering, so its answer ends at EOF) and its answer
/// back, unless it is the first payout.
async fn forward(
    mut client: TcpStream,
    upstream: std::net::SocketAddr,
    payout_posts: &AtomicUsize,
) -> std::io::Result<()> {
    let mut request = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let read = client.read(&mut chunk).await?;
        if read == 0 {
            return Ok(());
        }
        request.extend_from_slice(&chunk[..read]);
        if let Some(at) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&request[..head_end]).into_owned();
    let length: usize = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    while request.len() < head_end + length {
        let read = client.read(&mut chunk).await?;
        if read == 0 {
            return Ok(());
        }
        request.extend_from_slice(&chunk[..read]);
    }
    let mut lines: Vec<&str> = head.trim_end().split("\r\n").collect();
    lines.retain(|line| !line.to_ascii_lowercase().starts_with("connection:"));
    let is_payout = lines[0].starts_with("POST /v1/api/payout ");
    let mut rewritten = lines.join("\r\n");
    rewritten.push_str("\r\nconnection: close\r\n\r\n");
    let mut upstream = TcpStream::connect(upstream).await?;
    upstream.write_all(rewritten.as_bytes()).await?;
    upstream.write_all(&request[head_end..]).await?;
    let mut answer = Vec::new();
    upstream.read_to_end(&mut answer).await?;
    if is_payout && payout_posts.fetch_add(1, Ordering::SeqCst) == 0 {
        // Applied by the sandbox; the caller never learns it.
        return Ok(());
    }
    client.write_all(&answer).await?;
    client.shutdown().await
}

fn client_at(base_url: &str) -> Client {
    Client::builder()
        .api_key("test_sandbox_key")
        .base_url(base_url)
        .timeout(Duration::from_secs(10))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

/// A sandbox, a [`CuttingProxy`] in front of it, and a client that goes
/// through the proxy.
async fn behind_cutting_proxy() -> (SandboxHandle, CuttingProxy, Client) {
    let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let proxy = CuttingProxy::start(sandbox.local_addr()).await;
    let client = client_at(&format!("{}/v1", proxy.origin));
    (sandbox, proxy, client)
}

/// Asserts that `create_or_get` of `payout` again finds the transaction
/// `paid` and sends no second payout.
async fn assert_found_again(
    client: &Client,
    payout: &PayoutRequest,
    paid: &Transaction,
    proxy: &CuttingProxy,
) {
    let again = client.payouts().create_or_get(payout).await.unwrap();
    assert_eq!(again.transaction_id, paid.transaction_id);
    assert_eq!(proxy.payout_posts.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_payout_whose_answer_is_lost_is_paid_once() {
    let (sandbox, proxy, client) = behind_cutting_proxy().await;

    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("100")))
        .await
        .unwrap();
    let payout =
        PayoutRequest::from_quote_with_session_id(&quote, "settlement-2291", ngn_bank()).unwrap();

    // Plain `create` sees only the lost answer.
    let lost = client.payouts().create(&payout).await.unwrap_err();
    assert_eq!(lost.outcome(), Outcome::MayHaveBeenApplied, "{lost:?}");
    assert_eq!(proxy.payout_posts.load(Ordering::SeqCst), 1);

    // `create_or_get` finds the payout the lost request made and sends nothing.
    let paid = client.payouts().create_or_get(&payout).await.unwrap();
    assert_eq!(paid.payment_reference, "settlement-2291");
    assert_eq!(paid.kind, Some(TransactionType::Payout));
    assert_eq!(paid.status, TransactionStatus::Completed);
    assert_eq!(paid.amount, dec("100"));
    assert_eq!(paid.fee, dec("0.5"));
    assert_eq!(paid.total_amount, dec("100.5"));
    assert_eq!(paid.to_amount, dec("153025"));
    assert_found_again(&client, &payout, &paid, &proxy).await;

    // One payout: the USD wallet (10000 at the start) debited once, by the
    // amount plus the quote's fee.
    let balance = client.wallet().balance(Currency::Usd).await.unwrap();
    assert_eq!(balance.amount, dec("9899.5"));
    drop(proxy);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn create_or_get_sends_the_payout_whose_answer_is_lost_once_and_reads_it_back() {
    let (sandbox, proxy, client) = behind_cutting_proxy().await;
    let payout = ngn_payout("2500.00", "invoice-77");

    // The first send is applied and its answer lost: read back, not resent.
    let paid = client.payouts().create_or_get(&payout).await.unwrap();
    assert_eq!(paid.payment_reference, "invoice-77");
    assert_eq!(paid.total_amount, dec("2500.00"));
    assert_eq!(proxy.payout_posts.load(Ordering::SeqCst), 1);
    assert_found_again(&client, &payout, &paid, &proxy).await;
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(balance.amount, dec("4997500.00"));
    drop(proxy);
    sandbox.shutdown().await;
}

/// A payout to the kit's NGN bank from `quote`, under `session_id`, with
/// the quote's rate key expired at the Unix epoch.
fn on_expired_quote(quote: &Quote, session_id: &str) -> PayoutRequest {
    let mut expired = quote.clone();
    expired.valid_until = UNIX_EPOCH;
    PayoutRequest::from_quote_with_session_id(&expired, session_id, ngn_bank()).unwrap()
}

/// An NGN payout of `amount` to the kit's NGN bank under `session_id`.
fn ngn_payout(amount: &str, session_id: &str) -> PayoutRequest {
    PayoutRequest::pay(
        dec(amount),
        crossborder::types::FiatCurrency::Ngn,
        ngn_bank(),
    )
    .with_session_id(session_id)
}

#[tokio::test]
async fn an_expired_quote_is_not_sent_and_a_made_payout_is_still_found() {
    let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let client = client_at(sandbox.base_url());
    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("100")))
        .await
        .unwrap();

    // Never made, and the quote expired: nothing is sent, and the error says
    // what to do.
    let stale = on_expired_quote(&quote, "settlement-1");
    let error = client.payouts().create_or_get(&stale).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "no payout settlement-1 was made, and its quote's rateKey {} expired at \
             1970-01-01T00:00:00Z: get a new quote and send the payout from it under the same \
             session id settlement-1 (nothing was sent)",
            quote.rate_key
        )
    );
    assert_eq!(error.outcome(), Outcome::NotApplied);
    let unknown = client.payouts().get("settlement-1").await.unwrap_err();
    assert!(unknown.is_not_found(), "{unknown:?}");

    // Made under a live quote; the retry's quote has expired since: the
    // payout made is returned, nothing is sent.
    let fresh =
        PayoutRequest::from_quote_with_session_id(&quote, "settlement-2", ngn_bank()).unwrap();
    let paid = client.payouts().create_or_get(&fresh).await.unwrap();
    let retried = on_expired_quote(&quote, "settlement-2");
    let found = client.payouts().create_or_get(&retried).await.unwrap();
    assert_eq!(found.transaction_id, paid.transaction_id);
    let balance = client.wallet().balance(Currency::Usd).await.unwrap();
    assert_eq!(balance.amount, dec("9899.5"));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_409_is_resolved_by_reading_the_payout_again() {
    let (server, client) = setup().await;
    let mut made = payout_json("PROCESSING", "settlement-9");
    made["data"]["paymentInstruction"] = json!([]);
    // First read: not there yet; the send: 409 (another process made it in
    // between); the second read: the payout.
    mock::transaction("settlement-9")
        .answers_first(
            1,
            &server,
            refusal(
                404,
                "Transaction not found: settlement-9",
                "/v1/api/transaction/settlement-9",
            ),
        )
        .await;
    mock::payout()
        .answers_once(
            &server,
            refusal(
                409,
                "sessionId already used for a different payout: settlement-9",
                "/v1/api/payout",
            ),
        )
        .await;
    mock::transaction("settlement-9")
        .answers_once(&server, ok(made))
        .await;
    let payout = ngn_payout("2500", "settlement-9");
    let found = client.payouts().create_or_get(&payout).await.unwrap();
    assert_eq!(found.payment_reference, "settlement-9");
    assert_eq!(found.status, TransactionStatus::Processing);
}

#[tokio::test]
async fn a_404_is_not_found_and_other_errors_are_not() {
    let (server, client) = setup().await;
    mock::transaction("nope")
        .answers(
            &server,
            refusal(
                404,
                "Transaction not found: nope",
                "/v1/api/transaction/nope",
            ),
        )
        .await;
    mock::transaction("proxy")
        .answers(
            &server,
            ResponseTemplate::new(404).set_body_string("<html>404</html>"),
        )
        .await;
    let error = client.payouts().get("nope").await.unwrap_err();
    assert!(error.is_not_found(), "{error:?}");
    // A 404 page that is not the API's: nothing says the payout is unknown.
    let error = client.payouts().get("proxy").await.unwrap_err();
    assert!(matches!(error, Error::Decode { .. }), "{error:?}");
    assert!(!error.is_not_found());
}

#[tokio::test]
async fn an_answer_without_a_documented_field_is_missing_field_with_the_body() {
    let (server, client) = setup().await;
    let body = transaction_json_without("COMPLETED", "fee");
    mock::transaction("order-10045")
        .answers(&server, ok(body.clone()))
        .await;
    let error = client.collections().get("order-10045").await.unwrap_err();
    match &error {
        Error::MissingField {
            status,
            field,
            body: raw,
        } => {
            assert_eq!((*status, field.as_str()), (200, "fee"));
            let sent: serde_json::Value = serde_json::from_str(raw).unwrap();
            assert_eq!(sent, body);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        error.to_string(),
        "the response (HTTP 200) lacks the documented field `fee`"
    );
    assert_eq!(error.outcome(), Outcome::Applied);
}

/// The four amounts of a transaction and the six fields of a payment
/// instruction are always sent (ASSUMPTIONS B75, B76): an answer without
/// one is `Error::MissingField` naming it, with the raw body, never a
/// silent zero or a half-read instruction.
#[tokio::test]
async fn every_required_amount_and_instruction_field_is_missing_field_when_absent() {
    let amounts = ["toAmount", "totalAmount", "rate", "fee"];
    let instruction = [
        "narration",
        "accountNumber",
        "accountName",
        "bankName",
        "amountToTransfer",
        "validUntil",
    ];
    for (field, in_instruction) in amounts
        .iter()
        .map(|f| (*f, false))
        .chain(instruction.iter().map(|f| (*f, true)))
    {
        let (server, client) = setup().await;
        let mut body = transaction_json("PENDING");
        let object = if in_instruction {
            &mut body["data"]["paymentInstruction"][0]
        } else {
            &mut body["data"]
        };
        object.as_object_mut().unwrap().remove(field).unwrap();
        mock::transaction("order-10045")
            .answers(&server, ok(body.clone()))
            .await;
        let error = client.collections().get("order-10045").await.unwrap_err();
        match &error {
            Error::MissingField {
                status,
                field: named,
                body: raw,
            } => {
                assert_eq!((*status, named.as_str()), (200, field));
                let sent: serde_json::Value = serde_json::from_str(raw).unwrap();
                assert_eq!(sent, body);
            }
            other => panic!("{field}: {other:?}"),
        }
        assert_eq!(error.outcome(), Outcome::Applied, "{field}");
    }
}

/// What the spec's Transaction table does not list, or a payout or a
/// same-currency collection has none of, may be absent (ASSUMPTIONS B8,
/// B76): the transaction is read without it.
#[tokio::test]
async fn a_transaction_without_its_optional_fields_is_read() {
    let (server, client) = setup().await;
    let mut body = transaction_json("PENDING");
    for field in [
        "type",
        "payRefrence",
        "paidAmount",
        "rateKey",
        "address",
        "network",
        "paymentInstruction",
    ] {
        body["data"].as_object_mut().unwrap().remove(field);
    }
    mock::transaction("order-10045")
        .answers(&server, ok(body))
        .await;
    let read = client.collections().get("order-10045").await.unwrap();
    assert_eq!(read.kind, None);
    assert_eq!(read.pay_reference, None);
    assert_eq!(read.paid_amount, None);
    assert_eq!(read.rate_key, None);
    assert_eq!((read.address, read.network), (None, None));
    assert!(read.payment_instructions.is_empty());
    assert_eq!(
        (
            read.amount,
            read.to_amount,
            read.total_amount,
            read.rate,
            read.fee
        ),
        (dec("50000"), dec("50000"), dec("50000"), dec("1"), dec("0"))
    );
    assert_eq!(read.status, TransactionStatus::Pending);
}

#[tokio::test]
async fn a_valid_until_that_is_not_a_time_is_a_decode_error() {
    let (server, client) = setup().await;
    let mut body = transaction_json("PENDING");
    body["data"]["paymentInstruction"][0]["validUntil"] = json!("tomorrow");
    mock::transaction("order-10045")
        .answers(&server, ok(body))
        .await;
    let error = client.collections().get("order-10045").await.unwrap_err();
    match &error {
        Error::Decode {
            status, message, ..
        } => {
            assert_eq!(*status, Some(200));
            assert!(
                message.starts_with(
                    "\"tomorrow\" is not an RFC 3339 date-time (such as 2026-11-22T12:00:00.000Z)"
                ),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
}
