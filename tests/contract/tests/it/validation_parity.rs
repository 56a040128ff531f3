//! Client-side validation parity: every payout the SDK refuses before
//! sending is refused by the sandbox with a 400 listing the same
//! violations (field and message, in the same order), because both use the
//! same rules (`crossborder_core::payout::validate_payout`).

use crossborder::rules::payout::{validate_payout, PayoutFields};
use crossborder::{
    types::{CryptoCurrency, CryptoSource, PayoutRequest},
    Currency, Decimal, Error,
};
use crossborder_contract_tests::{
    assert_error_body, d, field_errors, payout_json, sdk_client, violation_pairs, Env, Proxy,
    Rewrite, STAGING_KEY,
};
use crossborder_testkit::fixtures::{kes_bank, ngn_bank, ugx_bank, us_bank};
use serde_json::{json, Map, Value};

fn payout(session_id: &str, amount: Decimal, from: Currency, to: Currency) -> PayoutRequest {
    PayoutRequest::new(session_id, amount, from, to)
}

/// A well-formed rateKey that no quote issued: the SDK refuses each payout
/// here before it is sent, so none is ever looked up.
const RATE_KEY: &str = "rk_0000000000000000";

/// A payout between two currencies, with a [`RATE_KEY`].
fn converting(session_id: &str, amount: Decimal, from: Currency, to: Currency) -> PayoutRequest {
    payout(session_id, amount, from, to).rate_key(RATE_KEY)
}

/// A complete NGN payout, to break one field at a time.
fn ngn(session_id: &str) -> PayoutRequest {
    payout(session_id, d("1500.50"), Currency::Ngn, Currency::Ngn).destination(ngn_bank())
}

/// Invalid payouts, each with a label.
fn invalid_payouts() -> Vec<(&'static str, PayoutRequest)> {
    vec![
        (
            "everything missing for USD to GBP",
            payout("", d("0"), Currency::Usd, Currency::Gbp).narration("x".repeat(141)),
        ),
        (
            "NGN destination fields missing",
            payout("p-ngn-missing", d("100"), Currency::Ngn, Currency::Ngn),
        ),
        (
            "converting without rateKey or bankCode",
            payout("p-usd-ngn", d("100"), Currency::Usd, Currency::Ngn)
                .account_number("0123456789")
                .account_name("ADAEZE OKAFOR")
                .bank_name("Guaranty Trust Bank"),
        ),
        (
            "too many decimals for NGN",
            payout("p-precise", d("1.234"), Currency::Ngn, Currency::Ngn).destination(ngn_bank()),
        ),
        (
            "decimals for UGX",
            payout("p-ugx", d("10.5"), Currency::Ugx, Currency::Ugx)
                .account_number("0123456789")
                .account_name("OKELLO JAMES")
                .bank_name("Centenary Bank")
                .bank_code("006"),
        ),
        (
            "negative amount",
            payout("p-negative", d("-5"), Currency::Ngn, Currency::Ngn).destination(ngn_bank()),
        ),
        ("sessionId with a space", ngn("has space")),
        ("sessionId too long", ngn(&"s".repeat(101))),
        (
            "narration too long",
            ngn("p-narration").narration("é".repeat(141)),
        ),
        (
            "NGN to USDT without rateKey or address",
            payout("p-usdt", d("1000"), Currency::Ngn, Currency::Usdt),
        ),
        (
            "USDT to USDC without anything",
            payout("p-crypto", d("10.123456"), Currency::Usdt, Currency::Usdc),
        ),
        (
            "USDC to USDC without address or network",
            payout("p-usdc", d("10"), Currency::Usdc, Currency::Usdc),
        ),
        (
            "USDT to NGN without fromNetwork",
            converting("p-usdt-ngn", d("10"), Currency::Usdt, Currency::Ngn)
                .destination(ngn_bank()),
        ),
        (
            "NGN to CAD without transit and institution numbers",
            converting("p-cad", d("100"), Currency::Ngn, Currency::Cad),
        ),
        (
            "NGN to EUR without swiftCode",
            converting("p-eur", d("100"), Currency::Ngn, Currency::Eur),
        ),
        (
            "NGN to GBP without any bank details",
            converting("p-gbp", d("100"), Currency::Ngn, Currency::Gbp),
        ),
        (
            "KES without bankCode",
            payout("p-kes", d("100"), Currency::Kes, Currency::Kes)
                .account_number("0123456789")
                .account_name("WANJIKU KAMAU")
                .bank_name("KCB Bank Kenya"),
        ),
        (
            "malformed NGN account number and bank code",
            ngn("p-nuban").account_number("01234").bank_code("GTB"),
        ),
        (
            "malformed UK sort code, account number and BIC",
            converting("p-uk", d("100"), Currency::Ngn, Currency::Gbp)
                .account_number("3192681")
                .account_name("JANE SMITH")
                .bank_name("Barclays Bank")
                .sort_code("12-34-5")
                .swift_code("BARCGB2"),
        ),
        (
            "EUR IBAN with wrong check digits",
            converting("p-iban", d("100"), Currency::Ngn, Currency::Eur)
                .account_number("DE89 3704 0044 0532 0130 01")
                .swift_code("DEUTDEFF"),
        ),
        (
            "Canadian transit and institution numbers too short",
            converting("p-cad-format", d("100"), Currency::Usd, Currency::Cad)
                .transit_number("0012")
                .institution_number("03"),
        ),
        (
            "wallet address with a wrong EIP-55 checksum",
            payout("p-eip55", d("10"), Currency::Usdt, Currency::Usdt)
                .network("ethereum")
                .address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"),
        ),
        (
            "KES account number too short",
            payout("p-kes-short", d("100"), Currency::Kes, Currency::Kes)
                .destination(kes_bank())
                .account_number("1234"),
        ),
        (
            "UGX mobile-money number written with +",
            payout("p-ugx-plus", d("100"), Currency::Ugx, Currency::Ugx)
                .destination(ugx_bank())
                .account_number("+256712345678"),
        ),
        (
            "US account number too short",
            payout("p-usd-short", d("100"), Currency::Usd, Currency::Usd)
                .destination(us_bank())
                .account_number("123"),
        ),
        (
            "US payout to an IBAN with wrong check digits",
            converting("p-usd-iban", d("100"), Currency::Ngn, Currency::Usd)
                .destination(us_bank())
                .account_number("GB82 WEST 1234 5698 7654 33"),
        ),
        (
            "Solana address that is not 32 bytes",
            payout("p-solana", d("10"), Currency::Usdc, Currency::Usdc)
                .network("solana")
                .address("7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFL"),
        ),
        (
            "EVM address sent to Solana",
            converting("p-solana-evm", d("10"), Currency::Usdt, Currency::Usdc)
                .from_network("tron")
                .to_network("solana")
                .address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
        ),
        (
            "network names with whitespace",
            payout("p-network-space", d("10"), Currency::Usdt, Currency::Usdt)
                .network("tron mainnet")
                .address("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"),
        ),
        (
            "fromNetwork and toNetwork with whitespace",
            converting("p-networks-space", d("10"), Currency::Usdc, Currency::Usdt)
                .from_network("eth\tereum")
                .to_network(" tron")
                .address("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"),
        ),
        (
            "typed USDT to NGN with a blank source network",
            PayoutRequest::pay(
                d("10"),
                CryptoSource {
                    currency: CryptoCurrency::Usdt,
                    network: " ".into(),
                },
                crossborder_testkit::fixtures::ngn_bank(),
            )
            .rate_key(RATE_KEY),
        ),
        (
            "TRON address that is not base58check",
            converting("p-tron", d("10"), Currency::Usdc, Currency::Usdt)
                .from_network("ethereum")
                .to_network("tron")
                .address("TJRabPrwbZy45sbavfcjinPJC18kjpRTv9"),
        ),
    ]
}

#[tokio::test]
async fn sdk_and_sandbox_refuse_the_same_payouts_with_the_same_violations() {
    let env = Env::start().await;
    let proxy = Proxy::start(env.base_url(), Rewrite::default()).await;
    let client = sdk_client(proxy.base_url(), STAGING_KEY);

    for (label, request) in invalid_payouts() {
        let violations = match client.payouts().create(&request).await {
            Err(Error::Validation(violations)) => violations,
            other => panic!("{label}: the SDK should refuse it, got {other:?}"),
        };
        assert_eq!(proxy.requests_seen(), 0, "{label}: the SDK sent it");

        let reply = env.post("/api/payout", &payout_json(&request)).await;
        assert_error_body(&reply, 400, &violations.to_string(), "POST", "/api/payout");
        assert_eq!(
            field_errors(&reply.body),
            violation_pairs(&violations),
            "{label}: {}",
            reply.text
        );
    }

    // Nothing was paid out.
    let client = env.client(STAGING_KEY);
    for (currency, amount) in [
        (Currency::Ngn, "5000000"),
        (Currency::Usd, "10000"),
        (Currency::Usdt, "10000"),
    ] {
        assert_eq!(
            client.wallet().balance(currency).await.unwrap().amount,
            d(amount)
        );
    }
}

/// Raw rows the SDK's types cannot express (malformed amounts, unknown or
/// lowercase currencies, missing fields): the sandbox answers with exactly
/// what the SDK's re-exported rule function (`crossborder::rules::payout`)
/// says about the same fields.
#[tokio::test]
async fn sandbox_answers_what_the_sdks_rule_function_says_for_raw_bodies() {
    let env = Env::start().await;
    let rows: Vec<PayoutFields<'static>> = vec![
        PayoutFields::default(),
        PayoutFields {
            amount: Some("abc"),
            from_currency: Some("NGN"),
            to_currency: Some("NGN"),
            session_id: Some("raw-1"),
            ..PayoutFields::default()
        },
        PayoutFields {
            amount: Some("1e3"),
            from_currency: Some("ngn"),
            to_currency: Some("NGN"),
            session_id: Some("raw-2"),
            ..PayoutFields::default()
        },
        PayoutFields {
            amount: Some("100"),
            from_currency: Some("NGN"),
            to_currency: Some("BTC"),
            session_id: Some("raw-3"),
            ..PayoutFields::default()
        },
        PayoutFields {
            amount: Some(" 10"),
            from_currency: Some("USD"),
            to_currency: Some("NGN"),
            session_id: Some("raw.4"),
            account_number: Some("0123456789"),
            ..PayoutFields::default()
        },
    ];
    for fields in rows {
        let violations = validate_payout(&fields).expect_err("an invalid row");
        let reply = env.post("/api/payout", &fields_json(&fields)).await;
        // The API's own message for an unsupported currency; otherwise every
        // violation joined with "; ".
        let message = violations
            .iter()
            .find(|violation| violation.message.starts_with("Invalid currency: "))
            .map(|violation| violation.message.clone())
            .unwrap_or_else(|| violations.to_string());
        assert_error_body(&reply, 400, &message, "POST", "/api/payout");
        assert_eq!(
            field_errors(&reply.body),
            violation_pairs(&violations),
            "{fields:?}: {}",
            reply.text
        );
    }
}

fn fields_json(fields: &PayoutFields<'_>) -> Value {
    let mut body = Map::new();
    for (name, value) in [
        ("amount", fields.amount),
        ("fromCurrency", fields.from_currency),
        ("toCurrency", fields.to_currency),
        ("narration", fields.narration),
        ("sessionId", fields.session_id),
        ("rateKey", fields.rate_key),
        ("accountNumber", fields.account_number),
        ("accountName", fields.account_name),
        ("bankName", fields.bank_name),
        ("bankCode", fields.bank_code),
    ] {
        if let Some(value) = value {
            body.insert(name.into(), json!(value));
        }
    }
    Value::Object(body)
}
