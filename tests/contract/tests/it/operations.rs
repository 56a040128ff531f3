//! Every money operation of the SDK against the sandbox, with exact amounts:
//! quotes, collections, simulated funding, the webhook, wallet balances,
//! banks, payouts (same-currency, converting, idempotent, refused).

use std::time::{Duration, SystemTime};

use crossborder::{
    types::{
        Bank, CollectionRequest, PayoutRequest, QuoteRequest, Rail, ResolveAccountRequest,
        SimulateFundingRequest, Transaction, TransactionStatus, TransactionType,
    },
    Client, Currency, Error, WaitOptions,
};
use crossborder_contract_tests::{
    assert_api_error, balance, d, fixtures, json_decimal, ngn_payout, open_ngn_collection, quote,
    quote_of, staging, Env, WebhookReceiver,
};
use crossborder_testkit::start_instant;

/// The collection `reference` once settled, polled every few
/// milliseconds for at most two seconds.
async fn wait_settled(client: &Client, reference: &str) -> Transaction {
    let fast = WaitOptions::default()
        .timeout(Duration::from_secs(2))
        .initial_interval(Duration::from_millis(1))
        .max_interval(Duration::from_millis(4));
    match client
        .collections()
        .wait_until_settled(reference, fast)
        .await
    {
        Ok(settled) => settled,
        Err(error) => panic!("{reference} did not settle: {error}"),
    }
}

/// A collection instruction's `validUntil`: a day after the sandbox's
/// start.
fn instruction_deadline() -> SystemTime {
    start_instant() + Duration::from_secs(24 * 3600)
}

/// Asserts that `payout` is refused with `status` and `message`.
async fn assert_payout_refused(
    client: &Client,
    payout: &PayoutRequest,
    status: u16,
    message: &str,
) {
    assert_api_error(client.payouts().create(payout).await, status, message);
}

fn is_rate_key(key: &str) -> bool {
    key.len() == 19
        && key.starts_with("rk_")
        && key[3..]
            .chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
}

fn is_pay_reference(memo: &str) -> bool {
    memo.len() == 12
        && memo.starts_with("PAY-")
        && memo[4..]
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
}

#[tokio::test]
async fn quote_usd_to_ngn_has_the_exact_figures() {
    let (_env, client) = staging().await;
    let quote = quote_of(&client, Currency::Usd, Currency::Ngn, "100").await;
    assert_eq!(quote.from_currency, Currency::Usd);
    assert_eq!(quote.to_currency, Currency::Ngn);
    assert_eq!(quote.rate, d("1530.25"));
    assert_eq!(quote.rounded_rate, Some(d("1530.25")));
    assert_eq!(quote.fee, Some(d("0.5")));
    assert_eq!(quote.to_amount, Some(d("153025")));
    assert_eq!(quote.total_amount, Some(d("100.5")));
    assert!(is_rate_key(&quote.rate_key), "{}", quote.rate_key);
    // expiresAt = now + 300 s on the manual clock.
    assert_eq!(
        quote.expires_at.as_deref(),
        Some("2026-11-21T12:05:00.000Z")
    );
}

#[tokio::test]
async fn quote_with_a_rail_has_the_same_figures() {
    let (_env, client) = staging().await;
    // GBP -> KES: 129.50 / 0.79 to 12 places; fee 0.5 % of 250.75 = 1.25375 -> 1.25.
    let pinned = quote(
        &client,
        QuoteRequest::new(Currency::Gbp, Currency::Kes, d("250.75")).rail(Rail::Swift),
    )
    .await;
    assert_eq!(pinned.rate, d("163.924050632911"));
    assert_eq!(pinned.rounded_rate, Some(d("163.92")));
    assert_eq!(pinned.fee, Some(d("1.25")));
    assert_eq!(pinned.to_amount, Some(d("41103.96")));
    assert_eq!(pinned.total_amount, Some(d("252.00")));
    assert!(is_rate_key(&pinned.rate_key));

    let unpinned = quote_of(&client, Currency::Gbp, Currency::Kes, "250.75").await;
    assert_eq!(
        (
            unpinned.rate,
            unpinned.rounded_rate,
            unpinned.fee,
            unpinned.to_amount,
            unpinned.total_amount
        ),
        (
            pinned.rate,
            pinned.rounded_rate,
            pinned.fee,
            pinned.to_amount,
            pinned.total_amount
        )
    );
    assert_ne!(unpinned.rate_key, pinned.rate_key);

    // Every rail is accepted; a rate below 1 is rounded to 6 places.
    for rail in Rail::ALL {
        let quote = client
            .quotes()
            .get(QuoteRequest::new(Currency::Ngn, Currency::Usd, d("1530.25")).rail(rail))
            .await
            .unwrap_or_else(|error| panic!("{rail:?}: {error}"));
        assert_eq!(quote.rate, d("0.000653487992"), "{rail:?}");
        assert_eq!(quote.rounded_rate, Some(d("0.000653")), "{rail:?}");
        assert_eq!(quote.fee, Some(d("7.65")), "{rail:?}");
        assert_eq!(quote.to_amount, Some(d("1.00")), "{rail:?}");
        assert_eq!(quote.total_amount, Some(d("1537.90")), "{rail:?}");
    }
}

#[tokio::test]
async fn collection_funding_webhook_and_balance() {
    let (env, client) = staging().await;
    let receiver = WebhookReceiver::start().await;

    let ack = client.webhooks().set_url(receiver.url()).await.unwrap();
    assert_eq!(ack.message, "Webhook URL set successfully");

    let usd_before = client.wallet().balance(Currency::Usd).await.unwrap();
    assert_eq!(usd_before.currency, Currency::Usd);
    assert_eq!(usd_before.amount, d("10000"));

    let ngn_before = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(ngn_before.amount, d("5000000"));

    // A converting collection: 200 USD paid, credited in NGN at the quote's
    // rate.
    let quote = quote_of(&client, Currency::Usd, Currency::Ngn, "200").await;
    let request = CollectionRequest::new("order-10045", d("200"), Currency::Usd, Currency::Ngn)
        .rate_key(quote.rate_key.clone());
    let created = client.collections().create(&request).await.unwrap();
    assert_eq!(created.kind, Some(TransactionType::Collection));
    assert_eq!(created.status, TransactionStatus::Pending);
    assert_eq!(created.payment_reference, "order-10045");
    assert!(!created.transaction_id.is_empty());
    assert_eq!(created.amount, d("200"));
    assert_eq!(created.rate, d("1530.25"));
    assert_eq!(created.to_amount, d("306050"));
    assert_eq!(created.fee, d("0"));
    assert_eq!(created.total_amount, d("200"));
    assert_eq!(created.paid_amount, Some(d("0")));
    assert_eq!(created.remaining_amount(), Some(d("200")));
    assert_eq!(created.rate_key.as_deref(), Some(quote.rate_key.as_str()));
    assert_eq!(created.from_currency, Currency::Usd);
    assert_eq!(created.to_currency, Currency::Ngn);
    let memo = created.pay_reference.clone().expect("a payRefrence memo");
    assert!(is_pay_reference(&memo), "{memo}");
    assert_eq!(created.payment_instructions.len(), 1);
    let instruction = &created.payment_instructions[0];
    assert_eq!(instruction.account_number, "9930001234");
    assert_eq!(instruction.account_name, "Crossborder Collections");
    assert_eq!(instruction.bank_name, "Sandbox Bank");
    assert_eq!(instruction.amount_to_transfer, Some(d("200")));
    assert_eq!(instruction.amount_to_transfer_text.as_str(), "200");
    assert_eq!(instruction.valid_until, instruction_deadline());
    assert!(instruction.narration.contains(&memo), "{instruction:?}");

    // Reading it back gives the same transaction.
    let read = client.collections().get("order-10045").await.unwrap();
    assert_eq!(read, created);

    // A partial payment, funded in the wallet it credits (ASSUMPTIONS
    // A14): 76895.06 NGN pays 76895.06 / 1530.25 = 50.2499... → 50.25 USD.
    let partial = SimulateFundingRequest::new(Currency::Ngn, d("76895.06"), memo.clone(), "fund-1");
    let ack = client.sandbox().simulate_funding(&partial).await.unwrap();
    assert_eq!(ack.message, "Funding simulated successfully");
    let after_partial = client.collections().get("order-10045").await.unwrap();
    assert_eq!(after_partial.status, TransactionStatus::PartiallyPaid);
    assert_eq!(after_partial.paid_amount, Some(d("50.25")));
    assert_eq!(after_partial.remaining_amount(), Some(d("149.75")));
    let first = receiver.wait_for(1, Duration::from_secs(5)).await;
    assert_eq!(first.len(), 1);

    // Replaying the same simulated funding credits nothing and sends nothing.
    client.sandbox().simulate_funding(&partial).await.unwrap();

    // The rest: 229154.94 / 1530.25 = 149.7500... → 149.75 USD.
    let rest = SimulateFundingRequest::new(Currency::Ngn, d("229154.94"), memo.clone(), "fund-2");
    client.sandbox().simulate_funding(&rest).await.unwrap();
    let settled = wait_settled(&client, "order-10045").await;
    assert_eq!(settled.status, TransactionStatus::Completed);
    assert_eq!(settled.paid_amount, Some(d("200")));
    assert_eq!(settled.remaining_amount(), Some(d("0")));
    assert_eq!(settled.payment_reference, "order-10045");
    assert_eq!(settled.pay_reference.as_deref(), Some(memo.as_str()));

    // The NGN wallet (toCurrency) got each funding's amount, 306050
    // (toAmount) in all. The USD wallet (the payer's currency) is unchanged.
    let ngn_after = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(ngn_after.amount, d("5306050"));
    assert_eq!(ngn_after.amount - ngn_before.amount, d("306050"));
    let usd_after = client.wallet().balance(Currency::Usd).await.unwrap();
    assert_eq!(usd_after.amount, usd_before.amount);

    // Exactly one webhook per status change: two, none for the replay.
    // (A third POST is given 100 ms to show up, polling every 2 ms.)
    let received = receiver.wait_for(3, Duration::from_millis(100)).await;
    assert_eq!(received.len(), 2, "{received:?}");
    let deliveries = env
        .sandbox
        .wait_for_webhook_deliveries(3, Duration::from_millis(50))
        .await;
    assert_eq!(deliveries.len(), 2, "{deliveries:?}");
    assert!(deliveries
        .iter()
        .all(|delivery| delivery.url == receiver.url() && delivery.succeeded()));

    for (hook, (paid, remaining, status, message)) in received.iter().zip([
        ("50.25", "149.75", false, "Partial payment received"),
        ("200", "0", true, "Payment completed"),
    ]) {
        let content_type = hook.headers["content-type"].to_str().unwrap();
        assert!(
            content_type.starts_with("application/json"),
            "{content_type}"
        );
        let event = hook.json();
        assert_eq!(event["reference"], "order-10045", "{event}");
        assert_eq!(event["memo"], memo.as_str(), "{event}");
        assert_eq!(json_decimal(&event["amount"]), d("200"), "{event}");
        assert_eq!(json_decimal(&event["paidAmount"]), d(paid), "{event}");
        assert_eq!(
            json_decimal(&event["remainingAmount"]),
            d(remaining),
            "{event}"
        );
        assert_eq!(event["currency"], "USD", "{event}");
        assert_eq!(event["status"], status, "{event}");
        assert_eq!(event["message"], message, "{event}");
    }
}

/// A converting collection credits its toCurrency wallet, the one a
/// funding names (ASSUMPTIONS A14): each funding's amount is credited and
/// pays its amount divided by the collection's rate (fixed by its rateKey),
/// rounded to fromCurrency's minor unit.
#[tokio::test]
async fn converting_collection_funding_credits_the_to_currency_wallet() {
    let (_env, client) = staging().await;
    let usd_before = client.wallet().balance(Currency::Usd).await.unwrap();
    let ngn_before = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(usd_before.amount, d("10000"));
    assert_eq!(ngn_before.amount, d("5000000"));

    let quote = quote_of(&client, Currency::Ngn, Currency::Usd, "153025").await;
    assert_eq!(quote.rate, d("0.000653487992"));
    assert_eq!(quote.to_amount, Some(d("100")));
    let request = CollectionRequest::new("order-fx", d("153025"), Currency::Ngn, Currency::Usd)
        .rate_key(quote.rate_key.clone());
    let created = client.collections().create(&request).await.unwrap();
    assert_eq!(created.rate, d("0.000653487992"));
    assert_eq!(created.to_amount, d("100"));
    let memo = created.pay_reference.clone().expect("a payRefrence memo");

    // Funded in the wallet it credits (ASSUMPTIONS A14): 39.21 USD pays
    // 39.21 / 0.000653487992 = 60001.0983... → 60001.10 NGN.
    let first = SimulateFundingRequest::new(Currency::Usd, d("39.21"), memo.clone(), "fx-1");
    client.sandbox().simulate_funding(&first).await.unwrap();
    let usd = client.wallet().balance(Currency::Usd).await.unwrap();
    assert_eq!(usd.amount - usd_before.amount, d("39.21"));
    let partial = client.collections().get("order-fx").await.unwrap();
    assert_eq!(partial.status, TransactionStatus::PartiallyPaid);
    assert_eq!(partial.paid_amount, Some(d("60001.10")));
    assert_eq!(partial.remaining_amount(), Some(d("93023.90")));

    // A replay credits nothing.
    client.sandbox().simulate_funding(&first).await.unwrap();
    let usd = client.wallet().balance(Currency::Usd).await.unwrap();
    assert_eq!(usd.amount - usd_before.amount, d("39.21"));

    // Any other currency, the payer's NGN included, is refused, naming the
    // wallet (ASSUMPTIONS.md A14).
    for currency in [Currency::Eur, Currency::Ngn] {
        let other = SimulateFundingRequest::new(currency, d("60.79"), memo.clone(), "fx-other");
        assert_api_error(
            client.sandbox().simulate_funding(&other).await,
            400,
            "currency: must be USD, the wallet collection order-fx credits (its \
                 fromCurrency NGN is what the payer sends, not a wallet to credit)",
        );
    }

    // 60.79 / 0.000653487992 = 93023.8975... → 93023.90 NGN: 153025 paid.
    let rest = SimulateFundingRequest::new(Currency::Usd, d("60.79"), memo, "fx-2");
    client.sandbox().simulate_funding(&rest).await.unwrap();
    let settled = client.collections().get("order-fx").await.unwrap();
    assert_eq!(settled.status, TransactionStatus::Completed);
    assert_eq!(settled.paid_amount, Some(d("153025")));
    assert_eq!(settled.remaining_amount(), Some(d("0")));

    let usd_after = client.wallet().balance(Currency::Usd).await.unwrap();
    assert_eq!(usd_after.amount, d("10100"));
    assert_eq!(
        usd_after.amount - usd_before.amount,
        d("39.21") + d("60.79")
    );
    let ngn_after = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(ngn_after.amount, ngn_before.amount);
}

#[tokio::test]
async fn wait_until_settled_times_out_on_a_pending_collection() {
    let (_env, client) = staging().await;
    let request = CollectionRequest::new("order-unpaid", d("5000"), Currency::Ngn, Currency::Ngn);
    client.collections().create(&request).await.unwrap();
    let options = WaitOptions::default()
        .timeout(Duration::from_millis(20))
        .initial_interval(Duration::from_millis(2))
        .max_interval(Duration::from_millis(4));
    match client
        .collections()
        .wait_until_settled("order-unpaid", options)
        .await
    {
        Err(Error::WaitTimeout { last }) => {
            assert_eq!(last.status, TransactionStatus::Pending);
            assert_eq!(last.payment_reference, "order-unpaid");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unpaid_collection_expires_after_its_instruction_lapses() {
    let (env, client) = staging().await;
    let request = CollectionRequest::new("order-expiring", d("5000"), Currency::Ngn, Currency::Ngn);
    let created = client.collections().create(&request).await.unwrap();
    env.clock.advance(Duration::from_secs(24 * 3600 + 1));
    let settled = wait_settled(&client, "order-expiring").await;
    assert_eq!(settled.status, TransactionStatus::Expired);
    assert_eq!(settled.paid_amount, Some(d("0")));

    // An expired collection cannot be paid (400).
    let memo = created.pay_reference.unwrap();
    let funding = SimulateFundingRequest::new(Currency::Ngn, d("5000"), memo, "fund-late");
    match client.sandbox().simulate_funding(&funding).await {
        Err(Error::Api { status: 400, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn bank_list_and_account_resolution() {
    let (_env, client) = staging().await;
    let banks = client
        .banks()
        .list(Currency::Usd, Currency::Ngn)
        .await
        .unwrap();
    let expected: Vec<Bank> = [
        ("Access Bank", "044"),
        ("Guaranty Trust Bank", "058"),
        ("Zenith Bank", "057"),
        ("First Bank of Nigeria", "011"),
        ("United Bank for Africa", "033"),
        ("Fidelity Bank", "070"),
        ("Union Bank of Nigeria", "032"),
        ("Stanbic IBTC Bank", "221"),
        ("Sterling Bank", "232"),
        ("Wema Bank", "035"),
    ]
    .into_iter()
    .map(|(name, code)| Bank {
        name: name.into(),
        code: code.into(),
    })
    .collect();
    assert_eq!(banks, expected);
    // The source currency does not change the list; crypto has none.
    assert_eq!(
        client
            .banks()
            .list(Currency::Ngn, Currency::Ngn)
            .await
            .unwrap(),
        expected
    );
    assert!(client
        .banks()
        .list(Currency::Ngn, Currency::Usdt)
        .await
        .unwrap()
        .is_empty());
    let kes: Vec<String> = client
        .banks()
        .list(Currency::Usd, Currency::Kes)
        .await
        .unwrap()
        .into_iter()
        .map(|bank| bank.code)
        .collect();
    assert_eq!(kes, ["01", "68", "11", "07", "03"]);

    let resolved = client
        .banks()
        .resolve(&fixtures::ngn_account_lookup())
        .await
        .unwrap();
    assert_eq!(resolved.account_name, "ADAEZE OKAFOR");
    assert_eq!(resolved.account_number, "0123456789");
    assert_eq!(resolved.bank_code, "058");

    match client
        .banks()
        .resolve(&ResolveAccountRequest::new(
            "0000000000",
            "058",
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await
    {
        Err(Error::Api {
            status: 404,
            message,
            path,
            ..
        }) => {
            assert_eq!(message, "Could not resolve account 0000000000 at bank 058");
            assert_eq!(path.as_deref(), Some("/v1/api/resolve-bank"));
        }
        other => panic!("{other:?}"),
    }

    let unknown_bank =
        ResolveAccountRequest::new("0123456789", "999", Currency::Ngn, Currency::Ngn);
    assert_api_error(
        client.banks().resolve(&unknown_bank).await,
        400,
        "Unknown bank code 999 for NGN",
    );
}

#[tokio::test]
async fn same_currency_ngn_payout_is_debited_and_tracked() {
    let (_env, client) = staging().await;
    let before = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(before.amount, d("5000000"));

    let receipt = client
        .payouts()
        .create(&ngn_payout("payout-ngn-0001", "150000.50"))
        .await
        .unwrap();
    assert_eq!(receipt.session_id, "payout-ngn-0001");
    assert_eq!(receipt.message, "Payout initiated successfully");

    let after = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(after.amount, d("4849999.50"));
    assert_eq!(before.amount - after.amount, d("150000.50"));

    let state = client.payouts().get("payout-ngn-0001").await.unwrap();
    assert_eq!(state.kind, Some(TransactionType::Payout));
    assert_eq!(state.status, TransactionStatus::Completed);
    assert_eq!(state.payment_reference, "payout-ngn-0001");
    assert_eq!(state.amount, d("150000.50"));
    // Same-currency payouts carry no fee.
    assert_eq!(state.fee, d("0"));
    assert_eq!(state.total_amount, d("150000.50"));
    assert_eq!(state.from_currency, Currency::Ngn);
    assert_eq!(state.to_currency, Currency::Ngn);
}

#[tokio::test]
async fn converting_usd_to_ngn_payout_uses_the_rate_key() {
    let (_env, client) = staging().await;
    let quote = quote_of(&client, Currency::Usd, Currency::Ngn, "100").await;
    let payout = PayoutRequest::new("payout-usd-0001", d("100.00"), Currency::Usd, Currency::Ngn)
        .rate_key(quote.rate_key.clone())
        .destination(fixtures::ngn_bank());
    let receipt = client.payouts().create(&payout).await.unwrap();
    assert_eq!(receipt.session_id, "payout-usd-0001");

    // The USD wallet is debited by the amount plus the quote's fee (0.5 %
    // of 100 = 0.50 USD); the NGN wallet is not touched.
    assert_eq!(quote.fee, Some(d("0.5")));
    assert_eq!(balance(&client, Currency::Usd).await, d("9899.5"));
    assert_eq!(balance(&client, Currency::Ngn).await, d("5000000"));

    let state = client.payouts().get("payout-usd-0001").await.unwrap();
    assert_eq!(state.kind, Some(TransactionType::Payout));
    assert_eq!(state.status, TransactionStatus::Completed);
    assert_eq!(state.amount, d("100"));
    assert_eq!(state.rate, d("1530.25"));
    assert_eq!(state.to_amount, d("153025"));
    assert_eq!(Some(state.fee), quote.fee);
    assert_eq!(state.total_amount, d("100.5"));
    assert_eq!(state.rate_key.as_deref(), Some(quote.rate_key.as_str()));
    assert_eq!(state.from_currency, Currency::Usd);
    assert_eq!(state.to_currency, Currency::Ngn);
}

#[tokio::test]
async fn payout_idempotency_by_session_id() {
    let (_env, client) = staging().await;
    let payout = ngn_payout("payout-idem-0001", "2500.75");
    let first = client.payouts().create(&payout).await.unwrap();
    let second = client.payouts().create(&payout).await.unwrap();
    assert_eq!(first, second);
    // The amount is compared by value: 2500.750 is the same payout.
    let rescaled = ngn_payout("payout-idem-0001", "2500.750");
    assert_eq!(client.payouts().create(&rescaled).await.unwrap(), first);
    // One debit only.
    assert_eq!(balance(&client, Currency::Ngn).await, d("4997499.25"));

    // The same sessionId with a different body is a conflict.
    let different = ngn_payout("payout-idem-0001", "2500.76");
    assert_payout_refused(
        &client,
        &different,
        409,
        "sessionId already used for a different payout: payout-idem-0001",
    )
    .await;
    assert_eq!(balance(&client, Currency::Ngn).await, d("4997499.25"));
    let state = client.payouts().get("payout-idem-0001").await.unwrap();
    assert_eq!(state.amount, d("2500.75"));
}

#[tokio::test]
async fn collections_and_payouts_share_one_id_space() {
    let (_env, client) = staging().await;
    open_ngn_collection(&client, "shared-0001", d("100"))
        .await
        .unwrap();
    let same_id = ngn_payout("shared-0001", "1000");
    assert_payout_refused(
        &client,
        &same_id,
        409,
        "sessionId already used by a collection: shared-0001",
    )
    .await;
    assert_eq!(balance(&client, Currency::Ngn).await, d("5000000"));

    client
        .payouts()
        .create(&ngn_payout("shared-0002", "1000"))
        .await
        .unwrap();
    assert_api_error(
        open_ngn_collection(&client, "shared-0002", d("100")).await,
        409,
        "paymentReference already used by a payout: shared-0002",
    );
    // Each id still tracks its own transaction.
    let collection = client.collections().get("shared-0001").await.unwrap();
    assert_eq!(collection.kind, Some(TransactionType::Collection));
    let payout = client.payouts().get("shared-0002").await.unwrap();
    assert_eq!(payout.kind, Some(TransactionType::Payout));
    assert_eq!(payout.amount, d("1000"));
}

#[tokio::test]
async fn insufficient_balance_is_refused_without_debit() {
    let (_env, client) = staging().await;
    let too_big = ngn_payout("payout-too-big", "5000000.01");
    assert_payout_refused(
        &client,
        &too_big,
        400,
        "Insufficient balance: available 5000000.00 NGN, required 5000000.01 NGN",
    )
    .await;
    assert_eq!(balance(&client, Currency::Ngn).await, d("5000000"));
    // A refused payout does not use up its sessionId.
    match client.payouts().get("payout-too-big").await {
        Err(Error::Api { status: 404, .. }) => {}
        other => panic!("{other:?}"),
    }
    client
        .payouts()
        .create(&ngn_payout("payout-too-big", "5000000"))
        .await
        .unwrap();
    assert_eq!(balance(&client, Currency::Ngn).await, d("0"));
}

#[tokio::test]
async fn expired_rate_key_is_refused() {
    let (env, client) = staging().await;
    let quote = quote_of(&client, Currency::Usd, Currency::Ngn, "10").await;
    env.clock.advance(Duration::from_secs(301));
    let payout = PayoutRequest::new("payout-late-rate", d("10"), Currency::Usd, Currency::Ngn)
        .rate_key(quote.rate_key.clone())
        .destination(fixtures::ngn_bank());
    assert_payout_refused(&client, &payout, 400, "rateKey is unknown or expired").await;
    let collection =
        CollectionRequest::new("order-late-rate", d("10"), Currency::Usd, Currency::Ngn)
            .rate_key(quote.rate_key);
    assert_api_error(
        client.collections().create(&collection).await,
        400,
        "rateKey is unknown or expired",
    );
    assert_eq!(balance(&client, Currency::Usd).await, d("10000"));
}

#[tokio::test]
async fn payout_to_the_failing_account_is_refunded() {
    let (_env, client) = staging().await;
    let payout = PayoutRequest::new("payout-fails", d("1000"), Currency::Ngn, Currency::Ngn)
        .account_number("0000000000")
        .account_name("NOBODY")
        .bank_name("Guaranty Trust Bank")
        .bank_code("058");
    let receipt = client.payouts().create(&payout).await.unwrap();
    assert_eq!(receipt.session_id, "payout-fails");
    let state = client.payouts().get("payout-fails").await.unwrap();
    assert_eq!(state.status, TransactionStatus::Failed);
    assert_eq!(state.kind, Some(TransactionType::Payout));
    assert_eq!(balance(&client, Currency::Ngn).await, d("5000000"));
}

#[tokio::test]
async fn collection_reference_reused_with_a_different_body_is_409() {
    let (_env, client) = staging().await;
    let request = CollectionRequest::new("order-reused", d("5000"), Currency::Ngn, Currency::Ngn);
    let first = client.collections().create(&request).await.unwrap();
    let different = CollectionRequest::new("order-reused", d("5001"), Currency::Ngn, Currency::Ngn);
    assert_api_error(
        client.collections().create(&different).await,
        409,
        "paymentReference already used: order-reused",
    );
    assert_eq!(
        client.collections().get("order-reused").await.unwrap(),
        first
    );
}

/// ASSUMPTIONS.md B3: "a collection `paymentReference` [is] unique per
/// business: an identical repeat returns the original response with no
/// second effect; a different body is 409" (and the SDK's docs tell callers
/// that repeating a write after a timeout with the same id is safe).
#[tokio::test]
async fn identical_collection_repeat_returns_the_original() {
    let (_env, client) = staging().await;
    let request = CollectionRequest::new("order-repeat", d("5000"), Currency::Ngn, Currency::Ngn);
    let first = client.collections().create(&request).await.unwrap();
    let again = client.collections().create(&request).await.unwrap();
    assert_eq!(again.transaction_id, first.transaction_id);
    assert_eq!(again.pay_reference, first.pay_reference);
    assert_eq!(again, first);
}

/// ASSUMPTIONS.md A2: "`PENDING`/`PARTIALLY_PAID` → `EXPIRED` when the
/// instruction lapses". Without it a lapsed, partly paid collection never
/// reaches a terminal status and `wait_until_settled` can only time out.
#[tokio::test]
async fn partially_paid_collection_expires_when_its_instruction_lapses() {
    let (env, client) = staging().await;
    let request =
        CollectionRequest::new("order-half-paid", d("5000"), Currency::Ngn, Currency::Ngn);
    let created = client.collections().create(&request).await.unwrap();
    let memo = created.pay_reference.unwrap();
    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            d("1000"),
            memo,
            "fund-half",
        ))
        .await
        .unwrap();
    env.clock.advance(Duration::from_secs(24 * 3600 + 1));
    let settled = wait_settled(&client, "order-half-paid").await;
    assert_eq!(settled.status, TransactionStatus::Expired);
    assert_eq!(settled.paid_amount, Some(d("1000")));
}

#[tokio::test]
async fn invalid_webhook_url_is_refused_by_both() {
    let (env, client) = staging().await;
    for url in ["ftp://hooks.example.org/x", "not a url", "/relative/path"] {
        let error = client.webhooks().set_url(url).await.unwrap_err();
        let violations = error.violations().expect("a validation error");
        let reply = env
            .put_webhook(&serde_json::json!({ "webhookUrl": url }))
            .await;
        crossborder_contract_tests::assert_same_violations(
            &reply,
            violations,
            "PUT",
            "/api/set-webhook",
        );
        assert_eq!(
            crossborder_contract_tests::field_errors(&reply.body),
            [(
                "webhookUrl".to_owned(),
                "must be an absolute http or https URL".to_owned()
            )]
        );
    }
}

#[tokio::test]
async fn unknown_rail_is_refused_on_the_wire() {
    // The SDK's `Rail` has only the eight documented rails.
    let env = Env::start().await;
    let reply = env.get("/api/qoutes/USD/NGN/100?rail=bogus").await;
    crossborder_contract_tests::assert_error_body(
        &reply,
        400,
        "Invalid rail: bogus (expected one of ach, iban, swift, wire, pix, ethereum, bridge_wallet, nip)",
        "GET",
        "/api/qoutes/USD/NGN/100?rail=bogus",
    );
}

#[tokio::test]
async fn quote_amount_keeps_its_digits() {
    let (_env, client) = staging().await;
    // 0.5 % of 100.50 = 0.5025 -> 0.50; 100.50 x 1530.25 = 153790.125 -> 153790.13.
    let quote = quote_of(&client, Currency::Usd, Currency::Ngn, "100.50").await;
    assert_eq!(quote.fee, Some(d("0.50")));
    assert_eq!(quote.to_amount, Some(d("153790.13")));
    assert_eq!(quote.total_amount, Some(d("101.00")));
}

#[tokio::test]
async fn crypto_collection_and_payout() {
    let (_env, client) = staging().await;
    let collection = client
        .collections()
        .create(&CollectionRequest::new(
            "order-usdt",
            d("25.5"),
            Currency::Usdt,
            Currency::Usdt,
        ))
        .await
        .unwrap();
    let address = collection.address.clone().expect("a wallet address");
    assert!(
        address.len() > 2
            && address.starts_with("0x")
            && address[2..].chars().all(|c| c.is_ascii_hexdigit()),
        "{address}"
    );
    assert_eq!(collection.network.as_deref(), Some("ethereum"));
    assert_eq!(collection.payment_instructions.len(), 1);
    let instruction = &collection.payment_instructions[0];
    assert_eq!(instruction.bank_name, "ethereum");
    assert_eq!(instruction.amount_to_transfer, Some(d("25.5")));
    assert_eq!(instruction.amount_to_transfer_text.as_str(), "25.5");
    assert_eq!(instruction.valid_until, instruction_deadline());

    // A same-currency crypto payout with six decimals, debited exactly.
    let payout = PayoutRequest::new(
        "payout-usdt-0001",
        d("12.345679"),
        Currency::Usdt,
        Currency::Usdt,
    )
    .address("0x52908400098527886E0F7030069857D2E4169EE7")
    .network("ethereum");
    client.payouts().create(&payout).await.unwrap();
    assert_eq!(balance(&client, Currency::Usdt).await, d("9987.654321"));
    let state = client.payouts().get("payout-usdt-0001").await.unwrap();
    assert_eq!(state.status, TransactionStatus::Completed);
    assert_eq!(state.amount, d("12.345679"));
}
