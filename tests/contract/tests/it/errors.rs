//! Every error row of the spec, on the wire (raw HTTP or the low-level
//! client) and as the SDK's typed error, plus per-key isolation.

use crossborder::{
    error::Rule,
    types::{CollectionRequest, SimulateFundingRequest},
    Currency, Error,
};
use crossborder_api::{self as low_level, ClientState};
use crossborder_contract_tests::{
    assert_error_body, balance, business_json, d, field_errors, fixtures, ngn_payout,
    open_ngn_collection, Env, Proxy, Rewrite, NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY,
    UNKNOWN_KEY,
};
use serde_json::json;

const NOT_ALLOWED: &str = "not allowed to access this resource; contact support";

#[tokio::test]
async fn missing_key_header_is_403_on_the_wire_and_in_the_sdk() {
    let env = Env::start().await;

    // Raw HTTP, no header at all; an empty header is the same.
    // Authentication comes before anything else of the request.
    for (url, key) in [
        ("/api/balance/NGN", None),
        ("/api/balance/NGN", Some("")),
        ("/api/balance/ABC", None),
    ] {
        let reply = env.raw_get(url, key).await;
        assert_error_body(&reply, 403, "API key header needed", "GET", url);
    }

    // The low-level client without a key: every error status arrives as
    // `UnexpectedResponse` with its status and raw body, which is the
    // documented 403 body.
    let low = low_level::Client::new(env.base_url(), ClientState::new());
    match low
        .get_balance()
        .currency(crossborder::Currency::Ngn)
        .send()
        .await
    {
        Err(low_level::Error::UnexpectedResponse(response)) => {
            let answer = crossborder_contract_tests::reply(response).await;
            assert_error_body(
                &answer,
                403,
                "API key header needed",
                "GET",
                "/api/balance/NGN",
            );
            let parsed: low_level::types::ErrorResponse =
                serde_json::from_str(&answer.text).expect("an ErrorResponse");
            assert_eq!(parsed.message, "API key header needed");
            assert_eq!(parsed.status_code, 403);
            assert_eq!(parsed.path.as_deref(), Some("/v1/api/balance/NGN"));
        }
        other => panic!("{other:?}"),
    }

    // The SDK always sends its key, so a proxy drops the header on the way:
    // the SDK maps the sandbox's real answer, for a read and for writes.
    let proxy = Proxy::start(
        env.base_url(),
        Rewrite {
            strip_api_key: true,
            ..Rewrite::default()
        },
    )
    .await;
    let client = crossborder_contract_tests::sdk_client(proxy.base_url(), STAGING_KEY);
    match client.wallet().balance(Currency::Ngn).await {
        Err(Error::MissingApiKeyHeader { message }) => {
            assert_eq!(message, "API key header needed")
        }
        other => panic!("{other:?}"),
    }
    let collection = CollectionRequest::new("order-no-key", d("10"), Currency::Ngn, Currency::Ngn);
    let error = client.collections().create(&collection).await.unwrap_err();
    assert!(
        matches!(&error, Error::MissingApiKeyHeader { message } if message == "API key header needed"),
        "{error:?}"
    );
    assert_eq!(error.status(), Some(403));
    let error = client
        .businesses()
        .upload_document(crossborder_contract_tests::PDF.to_vec(), "cac.pdf")
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::MissingApiKeyHeader { message } if message == "API key header needed"),
        "{error:?}"
    );
    assert_eq!(proxy.requests_seen(), 3);
}

#[tokio::test]
async fn invalid_key_is_401_invalid_api_key() {
    let env = Env::start().await;
    let reply = env.raw_get("/api/balance/NGN", Some(UNKNOWN_KEY)).await;
    assert_error_body(&reply, 401, "Invalid api key", "GET", "/api/balance/NGN");

    let client = env.client(UNKNOWN_KEY);
    match client.wallet().balance(Currency::Ngn).await {
        Err(Error::InvalidApiKey { message }) => assert_eq!(message, "Invalid api key"),
        other => panic!("{other:?}"),
    }
    let error = client
        .banks()
        .list(Currency::Usd, Currency::Ngn)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::InvalidApiKey { message } if message == "Invalid api key"),
        "{error:?}"
    );
    assert_eq!(error.status(), Some(401));
    // The key never appears in the error.
    assert!(!format!("{error} {error:?}").contains(UNKNOWN_KEY));
}

#[tokio::test]
async fn business_without_api_access_is_401_not_allowed() {
    let env = Env::start().await;
    let reply = env.raw_get("/api/balance/NGN", Some(NO_ACCESS_KEY)).await;
    assert_error_body(&reply, 401, NOT_ALLOWED, "GET", "/api/balance/NGN");

    let client = env.client(NO_ACCESS_KEY);
    match client.wallet().balance(Currency::Ngn).await {
        Err(Error::ApiAccessNotGranted { message }) => assert_eq!(message, NOT_ALLOWED),
        other => panic!("{other:?}"),
    }
    let collection =
        CollectionRequest::new("order-noaccess", d("10"), Currency::Ngn, Currency::Ngn);
    match client.collections().create(&collection).await {
        Err(Error::ApiAccessNotGranted { message }) => assert_eq!(message, NOT_ALLOWED),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unsupported_currency_is_400_invalid_currency() {
    let env = Env::start().await;
    let reply = env.get("/api/balance/ABC").await;
    assert_error_body(
        &reply,
        400,
        "Invalid currency: ABC",
        "GET",
        "/api/balance/ABC",
    );
    let reply = env.get("/api/qoutes/USD/ABC/100").await;
    assert_error_body(
        &reply,
        400,
        "Invalid currency: ABC",
        "GET",
        "/api/qoutes/USD/ABC/100",
    );

    // Neither client can even express it: the SDK's `Currency` has no ABC,
    // and the low-level client refuses the conversion before sending.
    let low = low_level::Client::new(
        env.base_url(),
        ClientState::new().with_api_key(STAGING_KEY).unwrap(),
    );
    match low.get_balance().currency("ABC").send().await {
        Err(low_level::Error::InvalidRequest(message)) => {
            assert!(message.contains("currency"), "{message}")
        }
        other => panic!("{other:?}"),
    }

    // The SDK's mapping of the sandbox's real answer: a proxy turns the
    // SDK's `/api/balance/USD` into `/api/balance/ABC`.
    let proxy = Proxy::start(
        env.base_url(),
        Rewrite {
            path: Some(("/api/balance/USD".into(), "/api/balance/ABC".into())),
            ..Rewrite::default()
        },
    )
    .await;
    let client = crossborder_contract_tests::sdk_client(proxy.base_url(), STAGING_KEY);
    match client.wallet().balance(Currency::Usd).await {
        Err(Error::InvalidCurrency { code }) => assert_eq!(code, "ABC"),
        other => panic!("{other:?}"),
    }
    assert_eq!(proxy.requests_seen(), 1);
}

#[tokio::test]
async fn simulate_funding_is_staging_only() {
    let env = Env::start().await;
    // A real collection of the production key's business, so that the only
    // thing wrong with the request is the environment.
    let live = env.client(PRODUCTION_KEY);
    let collection = open_ngn_collection(&live, "order-live", d("1000"))
        .await
        .unwrap();
    let memo = collection.pay_reference.unwrap();
    let body =
        json!({"currency": "NGN", "amount": 1000, "narration": memo, "sessionId": "fund-live-1"});
    let reply = env
        .raw_post("/api/simulate-funding", Some(PRODUCTION_KEY), &body)
        .await;
    assert_error_body(
        &reply,
        400,
        "Funding simulation is only available in staging",
        "POST",
        "/api/simulate-funding",
    );
    // Nothing was credited.
    assert_eq!(balance(&live, Currency::Ngn).await, d("5000000"));

    // The SDK refuses before sending anything: through a counting proxy.
    let proxy = Proxy::start(env.base_url(), Rewrite::default()).await;
    let live_via_proxy = crossborder_contract_tests::sdk_client(proxy.base_url(), PRODUCTION_KEY);
    let request = SimulateFundingRequest::new(Currency::Ngn, d("1000"), memo, "fund-live-2");
    match live_via_proxy.sandbox().simulate_funding(&request).await {
        Err(Error::SandboxOnly) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(proxy.requests_seen(), 0);
    // Even an invalid request is refused for the environment first.
    let invalid = SimulateFundingRequest::new(Currency::Ngn, d("0"), "", "");
    assert!(matches!(
        live_via_proxy.sandbox().simulate_funding(&invalid).await,
        Err(Error::SandboxOnly)
    ));
    assert_eq!(proxy.requests_seen(), 0);
}

#[tokio::test]
async fn unrecognised_document_key_is_refused_by_both() {
    let env = Env::start().await;
    let link = "https://files.crossborder.invalid/kyb/doc.pdf";

    // SDK: a validation error naming the key, nothing sent.
    let proxy = Proxy::start(env.base_url(), Rewrite::default()).await;
    let client = crossborder_contract_tests::sdk_client(proxy.base_url(), STAGING_KEY);
    let mut request = crossborder_contract_tests::business_request("RC7000001", link);
    request.documents.insert(
        "selfie".into(),
        crossborder::types::DocumentLink::new(link, "selfie"),
    );
    let error = client.businesses().create(&request).await.unwrap_err();
    let violations = error.violations().expect("a validation error");
    assert_eq!(violations.len(), 1, "{violations}");
    assert_eq!(violations[0].field, "documents.selfie");
    assert_eq!(violations[0].rule, Rule::UnknownDocumentKey);
    assert_eq!(violations[0].message, "Unrecognized document key: selfie");
    assert_eq!(proxy.requests_seen(), 0);

    // Sandbox: 400 with the API's own message, and the same violation.
    let mut documents = fixtures::documents_json(link);
    documents["selfie"] = json!({"url": link, "key": "selfie"});
    let reply = env
        .post(
            "/api/business",
            &business_json("RC7000001", link, documents),
        )
        .await;
    assert_error_body(
        &reply,
        400,
        "Unrecognized document key: selfie",
        "POST",
        "/api/business",
    );
    assert_eq!(
        field_errors(&reply.body),
        [(
            "documents.selfie".to_owned(),
            "Unrecognized document key: selfie".to_owned()
        )]
    );

    // An unknown key in an update is refused the same way client-side.
    let mut changes = crossborder::types::UpdateBusinessRequest::default();
    let mut documents = crossborder::types::Documents::new();
    documents.insert(
        "passport".into(),
        crossborder::types::DocumentLink::new(link, "passport"),
    );
    changes.documents = Some(documents);
    let error = client
        .businesses()
        .update("biz_0000000000", &changes)
        .await
        .unwrap_err();
    let violations = error.violations().expect("a validation error");
    assert_eq!(violations[0].field, "documents.passport");
    assert_eq!(violations[0].message, "Unrecognized document key: passport");
    assert_eq!(proxy.requests_seen(), 0);
}

#[tokio::test]
async fn each_key_sees_only_its_own_business() {
    let env = Env::start().await;
    let staging = env.client(STAGING_KEY);
    let live = env.client(PRODUCTION_KEY);
    open_ngn_collection(&staging, "order-private", d("750"))
        .await
        .unwrap();
    staging
        .payouts()
        .create(&ngn_payout("payout-private", "100"))
        .await
        .unwrap();

    for reference in ["order-private", "payout-private"] {
        match live.collections().get(reference).await {
            Err(Error::Api {
                status: 404,
                message,
                ..
            }) => assert_eq!(message, format!("Transaction not found: {reference}")),
            other => panic!("{reference}: {other:?}"),
        }
        assert!(staging.collections().get(reference).await.is_ok());
    }
    // Wallets are separate too.
    assert_eq!(balance(&live, Currency::Ngn).await, d("5000000"));
    assert_eq!(balance(&staging, Currency::Ngn).await, d("4999900"));
    // The same reference may be used by another business.
    open_ngn_collection(&live, "order-private", d("1"))
        .await
        .unwrap();
    assert_eq!(
        staging
            .collections()
            .get("order-private")
            .await
            .unwrap()
            .amount,
        d("750")
    );
}
