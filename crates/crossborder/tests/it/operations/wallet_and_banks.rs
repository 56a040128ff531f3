//! Wallet balances, the bank list and account resolution.

use super::*;

#[tokio::test]
async fn wallet_balance() {
    let (server, client) = setup().await;
    mock::balance("CNGN")
        .answers_once(&server, ResponseTemplate::new(200).set_body_raw(
            r#"{"message":"Balance retrieved successfully","data":{"balance":1250000.000001},"error":false}"#,
            "application/json",
        )).await;
    let balance = client.wallet().balance(Currency::Cngn).await.unwrap();
    assert_eq!(balance.currency, Currency::Cngn);
    assert_eq!(balance.amount, dec("1250000.000001"));
    assert_eq!(balance.to_string(), "1250000.000001 CNGN");
}

#[tokio::test]
async fn bank_list_and_resolve() {
    let (server, client) = setup().await;
    mock::bank_list("USD", "NGN")
        .answers_once(&server, ok(json!({
            "message": "Banks retrieved successfully",
            "data": [{"name": "Access Bank", "code": "044"}, {"name": "Guaranty Trust Bank", "code": "058"}]
        }))).await;
    mock::resolve_bank()
        .and(body_json(json!({
            "accountNumber": "0123456789",
            "bankCode": "058",
            "fromCurrency": "USD",
            "toCurrency": "NGN"
        })))
        .answers_once(&server, ok(json!({
            "message": "Account resolved successfully",
            "data": {"bankCode": "058", "accountName": "ADAEZE OKAFOR", "accountNumber": "0123456789"},
            "error": false
        }))).await;

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
        .resolve(&crossborder_testkit::fixtures::ngn_account_lookup())
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
    let malformed = ResolveAccountRequest::new("0123-4", " ", Currency::Usd, Currency::Ngn);
    assert_invalid(
        client.banks().resolve(&malformed).await,
        "accountNumber: must be 6 to 34 letters or digits; bankCode: is required",
    );
    assert_nothing_sent(&server).await;
}
