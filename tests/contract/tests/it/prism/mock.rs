//! Every answer the spec allows decodes (#13 item 7): the SDK against
//! `prism mock --dynamic`, which makes up a random, spec-valid answer for
//! each request: 25 seeds for the 2xx answer of every operation, and a
//! seed of its own for each documented error status of each.
//!
//! Prism 5 takes the seed per request (`Prefer: code=200, dynamic=true,
//! seed=N`), so one Prism serves every seed, the answers are the same on
//! every run, and a failure names the seed that reproduces it (`curl -H
//! 'x-api-key: test_x' -H 'Prefer: dynamic=true, seed=N' ...`). Every 2xx
//! answer must decode into the SDK's types; every documented error must
//! become a typed error carrying its status, never `Error::Decode`. The
//! requests go through the recorder, so Prism also judges each request the
//! SDK sent.
//!
//! Prism fills in every optional field, so the answers without them are
//! proven by a second test that needs no Prism: the smallest answer each
//! 2xx schema allows.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::spec::{document, minimal};
use super::{operation_of, operations, PrismServer, Recorder};
use crossborder::{
    types::{CollectionRequest, QuoteRequest, Rail, SimulateFundingRequest, UpdateBusinessRequest},
    Client, Currency, Error, RetryPolicy,
};
use crossborder_contract_tests::{business_request, d, person_request, PDF};
use tokio::sync::Semaphore;

/// Seeds per operation for its 2xx answer (1 to this).
const SUCCESS_SEEDS: u32 = 25;
/// The first seed of the error answers: each documented error status of
/// each operation gets a seed of its own from here on, so every error body
/// differs (they all share one schema).
const FIRST_ERROR_SEED: u32 = 1000;
/// Requests in flight at once (Prism answers on one thread; a few in
/// flight keep it busy without queueing much).
const IN_FLIGHT: usize = 6;

const STAGING_KEY: &str = "test_prism_mock_key";
const LINK: &str = "https://files.crossborder.invalid/kyb/doc.pdf";

type Call<'a> = Pin<Box<dyn Future<Output = Result<(), Error>> + Send + 'a>>;

/// The SDK call that exercises `operation`; `None` for an operation this
/// test does not know (the test then fails: every operation is driven).
fn call<'a>(operation: &str, client: &'a Client) -> Option<Call<'a>> {
    Some(match operation {
        "getQuote" => Box::pin(async move {
            let request =
                QuoteRequest::new(Currency::Usd, Currency::Ngn, d("100")).rail(Rail::Swift);
            client.quotes().get(request).await.map(drop)
        }),
        "initiatePayment" => Box::pin(async move {
            let request =
                CollectionRequest::new("order-10045", d("50000"), Currency::Ngn, Currency::Ngn);
            client.collections().create(&request).await.map(drop)
        }),
        "getTransaction" => Box::pin(async move {
            client.collections().get("order-10045").await?;
            // The payout read adds its own check on `type` (a collection is
            // not a payout); a random type is unknown, so it must pass too.
            match client.payouts().get("payout-0001").await {
                Err(Error::Api {
                    status: 404, body, ..
                }) if body.is_empty() => Ok(()),
                other => other.map(drop),
            }
        }),
        "getBalance" => {
            Box::pin(async move { client.wallet().balance(Currency::Ngn).await.map(drop) })
        }
        "getBankList" => Box::pin(async move {
            client
                .banks()
                .list(Currency::Usd, Currency::Ngn)
                .await
                .map(drop)
        }),
        "resolveBank" => Box::pin(async move {
            let request = crossborder_contract_tests::fixtures::ngn_account_lookup();
            client.banks().resolve(&request).await.map(drop)
        }),
        "createPayout" => Box::pin(async move {
            let request =
                crossborder_contract_tests::fixtures::ngn_bank_payout(d("100"), "payout-0001");
            client.payouts().create(&request).await.map(drop)
        }),
        "uploadDocument" => Box::pin(async move {
            client
                .businesses()
                .upload_document(PDF, "certificate.pdf")
                .await
                .map(drop)
        }),
        "createBusiness" => Box::pin(async move {
            let request = business_request("RC-1234567", LINK);
            client.businesses().create(&request).await.map(drop)
        }),
        "getBusiness" => {
            Box::pin(async move { client.businesses().get("biz_3M8QK2").await.map(drop) })
        }
        "updateBusiness" => Box::pin(async move {
            let changes = UpdateBusinessRequest {
                email: Some("kyc@lagostrading.ng".into()),
                ..UpdateBusinessRequest::default()
            };
            client
                .businesses()
                .update("biz_3M8QK2", &changes)
                .await
                .map(drop)
        }),
        "addDirector" => Box::pin(async move {
            client
                .businesses()
                .add_director("biz_3M8QK2", &person_request(LINK))
                .await
                .map(drop)
        }),
        "addUbo" => Box::pin(async move {
            client
                .businesses()
                .add_ubo("biz_3M8QK2", &person_request(LINK))
                .await
                .map(drop)
        }),
        "setWebhook" => Box::pin(async move {
            client
                .webhooks()
                .set_url("https://merchant.example.org/hooks/crossborder")
                .await
                .map(drop)
        }),
        "simulateFunding" => Box::pin(async move {
            let request =
                SimulateFundingRequest::new(Currency::Ngn, d("50000"), "PAY-7KQ2M9XD", "sim-0001");
            client.sandbox().simulate_funding(&request).await.map(drop)
        }),
        _ => return None,
    })
}

/// The status an SDK error carries, when it is the typed error of an
/// answer the API documents (not a decode or transport failure).
fn answered_status(error: &Error) -> Option<u16> {
    match error {
        Error::MissingApiKeyHeader { .. } => Some(403),
        Error::InvalidApiKey { .. } | Error::ApiAccessNotGranted { .. } => Some(401),
        Error::InvalidCurrency { .. } => Some(400),
        Error::Api { status, .. } => Some(*status),
        _ => None,
    }
}

/// One (operation, status, seed) to try.
#[derive(Debug, Clone)]
struct Case {
    operation: String,
    status: u16,
    seed: u32,
}

/// An SDK client whose every request asks Prism for `status`, made up
/// from `seed`.
fn client(base_url: &str, status: u16, seed: u32) -> Client {
    let mut headers = reqwest::header::HeaderMap::new();
    let prefer = format!("code={status}, dynamic=true, seed={seed}");
    headers.insert(
        "prefer",
        prefer.parse().expect("a valid Prefer header value"),
    );
    let http = reqwest::Client::builder()
        .default_headers(headers)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("the HTTP client builds");
    Client::builder()
        .api_key(STAGING_KEY)
        .base_url(base_url)
        .http_client(http)
        .retry_policy(RetryPolicy::none())
        .build()
        .expect("the SDK client builds")
}

/// What went wrong with one case, if anything.
async fn run_case(base_url: &str, case: &Case) -> Option<String> {
    let client = client(base_url, case.status, case.seed);
    let Some(future) = call(&case.operation, &client) else {
        return Some(format!("no SDK call drives {}", case.operation));
    };
    let result = future.await;
    let success = (200..300).contains(&case.status);
    match (success, result) {
        (true, Ok(())) => None,
        (false, Err(error)) if answered_status(&error) == Some(case.status) => None,
        (_, outcome) => Some(format!(
            "{} asked for {} with seed {}: {:?}",
            case.operation, case.status, case.seed, outcome
        )),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_the_spec_allows_decodes() {
    let operations = operations();
    let probe = client("http://127.0.0.1:9/v1", 200, 0);
    let unknown: Vec<&str> = operations
        .iter()
        .map(|operation| operation.id.as_str())
        .filter(|id| call(id, &probe).is_none())
        .collect();
    assert!(
        unknown.is_empty(),
        "operations of the spec this test does not drive: {unknown:?}"
    );

    let prism = PrismServer::start(
        "prism mock",
        &["mock", super::server::SPEC_PATH, "--dynamic"],
    )
    .await;
    let recorder = Recorder::start(&prism.origin()).await;
    let started = Instant::now();

    let mut cases = Vec::new();
    let mut error_seed = FIRST_ERROR_SEED;
    for operation in &operations {
        for seed in 1..=SUCCESS_SEEDS {
            cases.push(Case {
                operation: operation.id.clone(),
                status: operation.success_status(),
                seed,
            });
        }
        for status in operation.error_statuses() {
            cases.push(Case {
                operation: operation.id.clone(),
                status,
                seed: error_seed,
            });
            error_seed += 1;
        }
    }

    let base_url: Arc<str> = recorder.base_url().into();
    let permits = Arc::new(Semaphore::new(IN_FLIGHT));
    let mut tasks = tokio::task::JoinSet::new();
    for case in cases.clone() {
        let base_url = base_url.clone();
        let permits = permits.clone();
        tasks.spawn(async move {
            let _permit = permits
                .acquire_owned()
                .await
                .expect("the semaphore stays open");
            run_case(&base_url, &case).await
        });
    }
    let mut failures = Vec::new();
    while let Some(outcome) = tasks.join_next().await {
        if let Some(failure) = outcome.expect("a case task does not panic") {
            failures.push(failure);
        }
    }
    failures.sort();

    // Prism's own verdict on the requests the SDK sent, and on its answers.
    let exchanges = recorder.exchanges();
    let problems: Vec<String> = exchanges.iter().filter_map(|e| e.problem()).collect();
    let mut per_operation: BTreeMap<String, usize> = BTreeMap::new();
    for exchange in &exchanges {
        let id = operation_of(&operations, &exchange.method, &exchange.path).map_or_else(
            || format!("(no operation) {}", exchange.path),
            |o| o.id.clone(),
        );
        *per_operation.entry(id).or_default() += 1;
    }
    eprintln!(
        "prism mock: started in {:.1} s; {} cases ({SUCCESS_SEEDS} seeds for each 2xx, one for each documented error status) over {} operations, {} requests in {:.1} s: {per_operation:?}",
        prism.started_in().as_secs_f64(),
        cases.len(),
        operations.len(),
        exchanges.len(),
        started.elapsed().as_secs_f64(),
    );
    assert!(
        failures.is_empty() && problems.is_empty(),
        "{} of {} cases failed to decode:\n{}\n\nPrism's verdicts:\n{}\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n"),
        problems.join("\n"),
        prism.log()
    );
}

/// Prism's dynamic answers always carry every optional field, so absent
/// ones are proven here: an in-process server answers every operation with
/// the smallest answer its 2xx schema allows (only the required fields, an
/// unknown value for each open status set), and every SDK call decodes it.
#[tokio::test]
async fn the_smallest_answer_the_spec_allows_decodes() {
    let spec = document();
    let operations = operations();
    let answers: Vec<(super::Operation, serde_json::Value)> = operations
        .iter()
        .map(|operation| (operation.clone(), minimal(&spec, &operation.success_schema)))
        .collect();
    // What "smallest" means, on the transaction.
    let transaction = answers
        .iter()
        .find(|(operation, _)| operation.id == "getTransaction")
        .map(|(_, body)| body.clone());
    assert_eq!(
        transaction,
        Some(serde_json::json!({"message": "x", "data": {
            "transactionId": "x", "paymentReference": "x", "amount": 1, "toAmount": 1,
            "totalAmount": 1, "rate": 1, "status": "x", "fee": 1,
            "fromCurrency": "NGN", "toCurrency": "NGN",
        }}))
    );
    let served = answers.clone();
    let app = axum::Router::new().fallback(move |request: axum::extract::Request| {
        let served = served.clone();
        async move {
            let path = request.uri().path().trim_start_matches("/v1").to_owned();
            let method = request.method().as_str().to_owned();
            match served
                .iter()
                .find(|(operation, _)| operation.matches(&method, &path))
            {
                Some((_, body)) => (axum::http::StatusCode::OK, axum::Json(body.clone())),
                None => (
                    axum::http::StatusCode::NOT_FOUND,
                    axum::Json(serde_json::json!({"statusCode": 404, "message": path})),
                ),
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    let client = client(&format!("http://{addr}/v1"), 200, 0);
    let mut failures = Vec::new();
    for (operation, body) in &answers {
        let Some(future) = call(&operation.id, &client) else {
            failures.push(format!("no SDK call drives {}", operation.id));
            continue;
        };
        if let Err(error) = future.await {
            failures.push(format!("{} answering {body}: {error:?}", operation.id));
        }
    }
    server.abort();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
