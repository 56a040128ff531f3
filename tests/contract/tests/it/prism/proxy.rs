//! Prism between the SDK and the sandbox (#13 item 1): every SDK operation,
//! its happy path and each documented error, through
//! `prism proxy openapi/crossborder.yaml <sandbox>/v1 --errors`, which
//! validates each request against the spec (and refuses it under
//! `--errors`) and each answer of the sandbox. The test fails on any
//! violation Prism reports (`sl-violations`) and on any answer Prism makes
//! up instead of the sandbox's, naming the step and the exchange.
//!
//! Two requests break the spec on purpose, because the API documents the
//! answer to them: no `x-api-key` (403) and an unsupported currency (400).
//! Under `--errors` Prism would answer them itself, so they go through a
//! second Prism without `--errors`, which forwards them: there the request
//! violation must be exactly the one intended and the sandbox's answer must
//! keep to the spec.
//!
//! Uploads: Prism 5.14 reads a request body as UTF-8 text and forwards that
//! text, so bytes that are not UTF-8 (any real PNG or JPEG) reach the
//! sandbox altered, and a multipart part without a `Content-Type` header
//! crashes it (a `TypeError` in its multipart parser ends the process).
//! The uploads here are PDFs written in ASCII, which pass unchanged; the
//! SDK always gives the part a content type (`application/pdf`,
//! `image/png`, `image/jpeg`, told from the bytes), so it never sends the
//! part that crashes Prism. Binary uploads are proven against the sandbox
//! directly by the contract tests.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use super::server::SPEC_PATH;
use super::{operation_of, operations, Exchange, Operation, PrismServer, Recorder, Tamper};
use crossborder::onboard::{file_url, Application, Progress};
use crossborder::{
    types::{
        BusinessStatus, CollectionRequest, PayoutRequest, QuoteRequest, Rail,
        ResolveAccountRequest, SimulateFundingRequest, TransactionStatus, TransactionType,
        UpdateBusinessRequest,
    },
    Client, Currency, Error, WaitOptions,
};
use crossborder_contract_tests::{
    business_json, business_request, d, fixtures, ngn_payout, person_request, reply, sdk_client,
    Env, Reply, WebhookReceiver, NO_ACCESS_KEY, PDF, PRODUCTION_KEY, STAGING_KEY, UNKNOWN_KEY,
};
use serde_json::{json, Value};

/// The sandbox, the two Prisms in front of it, and a cursor into what each
/// recorder saw, so each step is judged on its own exchanges:
/// SDK -> recorder -> Prism --errors -> tamper -> sandbox, and
/// raw request -> recorder -> Prism (lenient) -> sandbox.
struct Conformance {
    env: Env,
    tamper: Tamper,
    strict: PrismServer,
    strict_recorder: Recorder,
    lenient: PrismServer,
    lenient_recorder: Recorder,
    operations: Vec<Operation>,
    strict_seen: usize,
    lenient_seen: usize,
    steps: usize,
}

/// The status and the `message` of an answer.
fn status_and_message(answer: &Reply) -> (u16, Option<&str>) {
    (answer.status, answer.body["message"].as_str())
}

impl Conformance {
    async fn start() -> Conformance {
        let env = Env::start().await;
        let tamper = Tamper::start(&format!("http://{}", env.sandbox.local_addr())).await;
        let tampered = format!("{}/v1", tamper.origin());
        let upstream = env.base_url().to_owned();
        let strict_args = ["proxy", SPEC_PATH, &tampered, "--errors"];
        let lenient_args = ["proxy", SPEC_PATH, &upstream];
        let (strict, lenient) = tokio::join!(
            PrismServer::start("prism proxy --errors", &strict_args),
            PrismServer::start("prism proxy (lenient)", &lenient_args),
        );
        let strict_recorder = Recorder::start(&strict.origin()).await;
        let lenient_recorder = Recorder::start(&lenient.origin()).await;
        Conformance {
            env,
            tamper,
            strict,
            strict_recorder,
            lenient,
            lenient_recorder,
            operations: operations(),
            strict_seen: 0,
            lenient_seen: 0,
            steps: 0,
        }
    }

    /// An SDK client with `key` whose requests go through the strict Prism.
    fn client(&self, key: &str) -> Client {
        sdk_client(self.strict_recorder.base_url(), key)
    }

    /// The strict exchanges since the last call.
    fn take_strict(&mut self) -> Vec<Exchange> {
        let all = self.strict_recorder.exchanges();
        let new = all[self.strict_seen..].to_vec();
        self.strict_seen = all.len();
        new
    }

    /// The strict exchanges since the last step, which must be at least
    /// one and each clean; panics naming `step` otherwise.
    fn check(&mut self, step: &str) -> Vec<Exchange> {
        let new = self.take_strict();
        self.steps += 1;
        assert!(!new.is_empty(), "{step}: no request went through Prism");
        let problems: Vec<String> = new.iter().filter_map(Exchange::problem).collect();
        assert!(
            problems.is_empty(),
            "{step}: Prism found the exchange breaks openapi/crossborder.yaml:\n{}\n\n{}",
            problems.join("\n"),
            self.strict.log()
        );
        new
    }

    /// `result`'s value after [`check`](Self::check); panics with the
    /// error (and Prism's verdict first, if it had one).
    fn ok<T>(&mut self, step: &str, result: Result<T, Error>) -> T {
        self.check(step);
        result.unwrap_or_else(|error| panic!("{step}: {error:?}"))
    }

    /// `result`'s error after [`check`](Self::check).
    fn err<T: std::fmt::Debug>(&mut self, step: &str, result: Result<T, Error>) -> Error {
        self.check(step);
        match result {
            Err(error) => error,
            Ok(value) => panic!("{step}: expected an error, got {value:?}"),
        }
    }

    /// A raw request through the strict Prism, checked like an SDK call.
    async fn raw(&mut self, step: &str, request: reqwest::RequestBuilder) -> Reply {
        let answer = reply(request.send().await.expect("the recorder answers")).await;
        self.check(step);
        answer
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.strict_recorder.base_url())
    }

    /// A POST of `path` with `key`, through the strict Prism, to send with
    /// [`raw`](Self::raw).
    fn post(&self, path: &str, key: &str) -> reqwest::RequestBuilder {
        self.env.http.post(self.url(path)).header("x-api-key", key)
    }

    /// A raw request that breaks the spec on purpose, through the lenient
    /// Prism: the request must break it exactly as `expected` says (each
    /// request violation's message contains one of them, and each of them
    /// is found), and the sandbox's answer must keep to it.
    async fn off_spec(
        &mut self,
        step: &str,
        method: reqwest::Method,
        path: &str,
        key: Option<&str>,
        expected: &[&str],
    ) -> Reply {
        let mut request = self.env.http.request(
            method,
            format!("{}{path}", self.lenient_recorder.base_url()),
        );
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        let answer = reply(request.send().await.expect("the recorder answers")).await;
        let all = self.lenient_recorder.exchanges();
        let new = all[self.lenient_seen..].to_vec();
        self.lenient_seen = all.len();
        self.steps += 1;
        let [exchange] = new.as_slice() else {
            panic!("{step}: expected one exchange, got {new:?}");
        };
        let request_violations: Vec<String> = exchange
            .violations_of("request")
            .iter()
            .map(|v| v["message"].as_str().unwrap_or_default().to_owned())
            .collect();
        let response_violations = exchange.violations_of("response");
        let explained = request_violations
            .iter()
            .all(|message| expected.iter().any(|want| message.contains(want)))
            && expected.iter().all(|want| {
                request_violations
                    .iter()
                    .any(|message| message.contains(want))
            });
        assert!(
            explained && response_violations.is_empty() && !exchange.answered_by_prism(),
            "{step}: expected only the request violations {expected:?} and a sandbox answer that keeps to the spec:\n{}\n\n{}",
            exchange.describe(),
            self.lenient.log()
        );
        answer
    }

    /// The statuses the sandbox answered for each operation, through both
    /// Prisms (the answers Prism made up in the self-test left out).
    fn coverage(&self) -> BTreeMap<String, BTreeSet<u16>> {
        let mut seen: BTreeMap<String, BTreeSet<u16>> = BTreeMap::new();
        for exchange in self
            .strict_recorder
            .exchanges()
            .iter()
            .chain(&self.lenient_recorder.exchanges())
            .filter(|exchange| !exchange.answered_by_prism())
        {
            let id = operation_of(&self.operations, &exchange.method, &exchange.path)
                .map_or_else(|| format!("(none) {}", exchange.path), |o| o.id.clone());
            seen.entry(id).or_default().insert(exchange.status);
        }
        seen
    }
}

fn api_error(error: &Error) -> (u16, &str) {
    match error {
        Error::Api {
            status, message, ..
        } => (*status, message.as_str()),
        other => panic!("expected Error::Api, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sdk_operation_keeps_to_the_spec_through_prism() {
    let started = Instant::now();
    let mut run = Conformance::start().await;
    let ready = started.elapsed();
    let client = run.client(STAGING_KEY);

    // The judge works. A request that breaks the spec is refused by Prism
    // itself under --errors (so it would fail `check`) ...
    let refused = reply(
        run.env
            .http
            .get(run.url("/api/balance/ABC"))
            .header("x-api-key", STAGING_KEY)
            .send()
            .await
            .expect("the recorder answers"),
    )
    .await;
    let judged = run.take_strict();
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        judged.len() == 1 && judged[0].answered_by_prism() && judged[0].problem().is_some(),
        "{judged:?}"
    );
    // ... and an answer that breaks it is reported, with where it breaks it.
    run.tamper
        .replace_next_body(r#"{"message":"ok","data":{"balance":"lots"},"error":false}"#);
    let spoiled = client.wallet().balance(Currency::Ngn).await;
    let judged = run.take_strict();
    assert!(spoiled.is_err(), "{spoiled:?}");
    assert_eq!(judged.len(), 1, "{judged:?}");
    let locations: Vec<&Value> = judged[0]
        .violations
        .iter()
        .filter_map(Value::as_array)
        .flatten()
        .map(|violation| &violation["location"])
        .collect();
    assert_eq!(
        locations,
        [&json!(["response", "body", "data", "balance"])],
        "{}",
        judged[0].describe()
    );

    // Quotes.
    let quote = run.ok(
        "getQuote USD to NGN on swift",
        client
            .quotes()
            .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, d("100")).rail(Rail::Swift))
            .await,
    );
    assert_eq!(
        (quote.rate, quote.fee, quote.to_amount, quote.total_amount),
        (
            d("1530.25"),
            Some(d("0.5")),
            Some(d("153025")),
            Some(d("100.5"))
        )
    );

    // Webhook, then collections funded until settled.
    let receiver = WebhookReceiver::start().await;
    run.ok(
        "setWebhook",
        client.webhooks().set_url(receiver.url()).await,
    );
    let created = run.ok(
        "initiatePayment NGN",
        client
            .collections()
            .create(&CollectionRequest::new(
                "prism-order-1",
                d("50000"),
                Currency::Ngn,
                Currency::Ngn,
            ))
            .await,
    );
    assert_eq!(created.status, TransactionStatus::Pending);
    assert_eq!(
        created.payment_instructions[0].amount_to_transfer,
        Some(d("50000"))
    );
    let memo = created.pay_reference.clone().expect("a payRefrence memo");
    let converting = run.ok(
        "initiatePayment USD to NGN with the quote's rateKey",
        client
            .collections()
            .create(
                &CollectionRequest::new("prism-order-2", d("100"), Currency::Usd, Currency::Ngn)
                    .rate_key(&quote.rate_key),
            )
            .await,
    );
    assert_eq!(converting.to_amount, d("153025"));
    for (session, amount) in [("prism-sim-1", "20000"), ("prism-sim-2", "30000")] {
        run.ok(
            "simulateFunding",
            client
                .sandbox()
                .simulate_funding(&SimulateFundingRequest::new(
                    Currency::Ngn,
                    d(amount),
                    &memo,
                    session,
                ))
                .await,
        );
    }
    let read = run.ok(
        "getTransaction of a collection",
        client.collections().get("prism-order-1").await,
    );
    assert_eq!(
        (read.status, read.paid_amount),
        (TransactionStatus::Completed, Some(d("50000")))
    );
    let settled = run.ok(
        "getTransaction polled by wait_until_settled",
        client
            .collections()
            .wait_until_settled("prism-order-1", WaitOptions::default())
            .await,
    );
    assert_eq!(settled.status, TransactionStatus::Completed);
    let balance = run.ok(
        "getBalance NGN",
        client.wallet().balance(Currency::Ngn).await,
    );
    assert_eq!(balance.amount, d("5050000"));

    // Banks.
    let banks = run.ok(
        "getBankList USD to NGN",
        client.banks().list(Currency::Usd, Currency::Ngn).await,
    );
    assert!(banks.iter().any(|bank| bank.code == "058"), "{banks:?}");
    let resolved = run.ok(
        "resolveBank",
        client
            .banks()
            .resolve(&crossborder_contract_tests::fixtures::ngn_account_lookup())
            .await,
    );
    assert_eq!(resolved.account_name, "ADAEZE OKAFOR");

    // Payouts: bank, verified, converting from the quote, crypto; then read.
    let receipt = run.ok(
        "createPayout NGN bank",
        client
            .payouts()
            .create(&ngn_payout("prism-payout-1", "1000"))
            .await,
    );
    assert_eq!(receipt.session_id, "prism-payout-1");
    run.ok(
        "resolveBank and createPayout by create_verified",
        client
            .payouts()
            .create_verified(&ngn_payout("prism-payout-2", "250.50"))
            .await,
    );
    let from_quote =
        PayoutRequest::from_quote(&quote, crossborder_contract_tests::fixtures::ngn_bank())
            .expect("the destination is in the quote's currency")
            .with_session_id("prism-payout-3");
    run.ok(
        "createPayout USD to NGN from the quote",
        client.payouts().create(&from_quote).await,
    );
    run.ok(
        "createPayout USDT to a wallet",
        client
            .payouts()
            .create(
                &PayoutRequest::new("prism-payout-4", d("12.5"), Currency::Usdt, Currency::Usdt)
                    .address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
                    .network("ethereum"),
            )
            .await,
    );
    let payout = run.ok(
        "getTransaction of a payout",
        client.payouts().get("prism-payout-1").await,
    );
    assert_eq!(
        (payout.kind, payout.status, payout.amount),
        (
            Some(TransactionType::Payout),
            TransactionStatus::Completed,
            d("1000")
        )
    );

    // KYB: upload, create, people, decision, update; the JSON forms; onboard.
    let link = run
        .ok(
            "uploadDocument (multipart, a PDF)",
            client
                .businesses()
                .upload_document(PDF, "certificate.pdf")
                .await,
        )
        .link;
    let business = run.ok(
        "createBusiness",
        client
            .businesses()
            .create(&business_request("RC-PRISM-001", &link))
            .await,
    );
    assert_eq!(business.status, BusinessStatus::Pending);
    let director = run.ok(
        "addDirector",
        client
            .businesses()
            .add_director(&business.id, &person_request(&link))
            .await,
    );
    assert_eq!(director.submitted, Some(false));
    let ubo = run.ok(
        "addUbo (submits the business)",
        client
            .businesses()
            .add_ubo(&business.id, &person_request(&link))
            .await,
    );
    assert_eq!(ubo.submitted, Some(true));
    let decided = run.ok(
        "getBusiness (decided)",
        client.businesses().get(&business.id).await,
    );
    assert_eq!(decided.status, BusinessStatus::Approved);
    let update = run.ok(
        "updateBusiness",
        client
            .businesses()
            .update(
                &business.id,
                &UpdateBusinessRequest {
                    email: Some("kyc@lagostrading.ng".into()),
                    ..UpdateBusinessRequest::default()
                },
            )
            .await,
    );
    assert_eq!(update.business.status, BusinessStatus::Pending);
    let again = run.ok(
        "getBusiness polled by wait_for_decision",
        client
            .businesses()
            .wait_for_decision(&business.id, WaitOptions::default())
            .await,
    );
    assert_eq!(again.status, BusinessStatus::Approved);

    let documents = json!({
        "cac_document": {"url": link, "key": "cac-cert"},
        "bank_statement": {"url": link, "key": "statement-6m"},
        "application_letter": {"url": link, "key": "letter"},
        "bn_form_1": {"url": link, "key": "bn-form"},
    });
    let from_json = run.ok(
        "createBusiness from JSON",
        client
            .businesses()
            .create_json(&business_json("RC-PRISM-002", &link, documents))
            .await,
    );
    let person = json!({
        "firstName": "Chidi", "lastName": "Eze", "dateOfBirth": "1979-02-03",
        "nationality": "NG", "phoneNumber": "+2348039876543", "idNumber": "B98765432",
        "idType": "nationalId", "idDocumentUrl": link,
        "address": {"houseNumber": "3", "street": "Allen Avenue", "city": "Ikeja", "state": "Lagos", "zipCode": "100271"},
        "document": {"url": link, "key": "id-card"},
        "ownershipPercentage": "40",
    });
    run.ok(
        "addDirector from JSON",
        client
            .businesses()
            .add_director_json(&from_json.id, &person)
            .await,
    );
    run.ok(
        "addUbo from JSON",
        client
            .businesses()
            .add_ubo_json(&from_json.id, &person)
            .await,
    );
    run.ok(
        "updateBusiness from JSON",
        client
            .businesses()
            .update_json(&from_json.id, &json!({"businessDescription": "Wholesale."}))
            .await,
    );
    let application = Application {
        business: Some(business_request("RC-PRISM-003", &file_url("company.pdf"))),
        directors: vec![person_request(&file_url("company.pdf"))],
        ubos: vec![person_request(&file_url("company.pdf"))],
        files: [("company.pdf".to_owned(), PDF.into())]
            .into_iter()
            .collect(),
    };
    let onboarded = client
        .businesses()
        .onboard(&application, Progress::default(), |_, _| {})
        .await
        .map_err(|stopped| stopped.error);
    let onboarded = run.ok("onboard (upload, create, director, UBO, read)", onboarded);
    assert_eq!(onboarded.business.status, BusinessStatus::Approved);

    // The documented errors.
    let answer = run
        .off_spec(
            "no x-api-key (403)",
            reqwest::Method::GET,
            "/api/balance/NGN",
            None,
            &["security"],
        )
        .await;
    assert_eq!(
        status_and_message(&answer),
        (403, Some("API key header needed"))
    );
    let answer = run
        .off_spec(
            "unsupported currency (400)",
            reqwest::Method::GET,
            "/api/balance/ABC",
            Some(STAGING_KEY),
            &["currency must be equal to one of the allowed values"],
        )
        .await;
    assert_eq!(
        status_and_message(&answer),
        (400, Some("Invalid currency: ABC"))
    );
    let error = run.err(
        "invalid key (401)",
        run.client(UNKNOWN_KEY)
            .wallet()
            .balance(Currency::Ngn)
            .await,
    );
    assert!(
        matches!(&error, Error::InvalidApiKey { message } if message == "Invalid api key"),
        "{error:?}"
    );
    let error = run.err(
        "key without API access (401)",
        run.client(NO_ACCESS_KEY)
            .wallet()
            .balance(Currency::Ngn)
            .await,
    );
    assert!(
        matches!(&error, Error::ApiAccessNotGranted { message }
            if message == "not allowed to access this resource; contact support"),
        "{error:?}"
    );
    // A payout the SDK would refuse (no destination account), sent raw: it
    // keeps to the schema, and the sandbox's rules refuse it.
    let invalid = json!({"amount": "10", "fromCurrency": "USD", "toCurrency": "NGN", "sessionId": "prism-raw-1", "rateKey": quote.rate_key});
    let answer = run
        .raw(
            "createPayout without its destination fields (400)",
            run.post("/api/payout", STAGING_KEY).json(&invalid),
        )
        .await;
    assert_eq!(answer.status, 400, "{}", answer.text);
    assert_eq!(
        answer.body["message"],
        "accountNumber: is required when toCurrency is NGN; accountName: is required when toCurrency is NGN; bankName: is required when toCurrency is NGN; bankCode: is required when toCurrency is NGN"
    );
    let error = run.err(
        "initiatePayment with an unknown rateKey (400)",
        client
            .collections()
            .create(
                &CollectionRequest::new("prism-order-3", d("100"), Currency::Usd, Currency::Ngn)
                    .rate_key("rk_0000000000000000"),
            )
            .await,
    );
    assert_eq!(api_error(&error), (400, "rateKey is unknown or expired"));
    let error = run.err(
        "createPayout with an unknown rateKey (400)",
        client
            .payouts()
            .create(
                &PayoutRequest::new("prism-payout-5", d("10"), Currency::Usd, Currency::Ngn)
                    .rate_key("rk_0000000000000000")
                    .destination(fixtures::ngn_bank()),
            )
            .await,
    );
    assert_eq!(api_error(&error), (400, "rateKey is unknown or expired"));
    let error = run.err(
        "createPayout over the balance (400)",
        client
            .payouts()
            .create(&ngn_payout("prism-payout-6", "9000000"))
            .await,
    );
    assert_eq!(api_error(&error).0, 400);
    let error = run.err(
        "createPayout reusing a sessionId (409)",
        client
            .payouts()
            .create(&ngn_payout("prism-payout-1", "999"))
            .await,
    );
    assert_eq!(
        api_error(&error),
        (
            409,
            "sessionId already used for a different payout: prism-payout-1"
        )
    );
    let error = run.err(
        "getTransaction of an unknown reference (404)",
        client.collections().get("prism-missing").await,
    );
    assert_eq!(
        api_error(&error),
        (404, "Transaction not found: prism-missing")
    );
    let error = run.err(
        "resolveBank of an account that does not resolve (404)",
        client
            .banks()
            .resolve(&ResolveAccountRequest::new(
                "0000000000",
                "058",
                Currency::Usd,
                Currency::Ngn,
            ))
            .await,
    );
    assert_eq!(
        api_error(&error),
        (404, "Could not resolve account 0000000000 at bank 058")
    );
    let error = run.err(
        "getBusiness of an unknown business (404)",
        client.businesses().get("biz_0000000000").await,
    );
    assert_eq!(
        api_error(&error),
        (404, "Business not found: biz_0000000000")
    );
    let error = run.err(
        "addDirector to an unknown business (404)",
        client
            .businesses()
            .add_director("biz_0000000000", &person_request(&link))
            .await,
    );
    assert_eq!(api_error(&error).0, 404);
    // An identical repeat is answered with the business it created
    // (ASSUMPTIONS B22); another business under the same number is 409.
    let mut other = business_request("RC-PRISM-001", &link);
    other.name = "Another Trading Ltd".into();
    let error = run.err(
        "createBusiness reusing a registration number (409)",
        client.businesses().create(&other).await,
    );
    assert_eq!(
        api_error(&error),
        (409, "registrationNumber already registered: RC-PRISM-001")
    );
    let funding =
        json!({"currency": "NGN", "amount": 100, "narration": memo, "sessionId": "prism-live-1"});
    let answer = run
        .raw(
            "simulateFunding with a production key (400)",
            run.post("/api/simulate-funding", PRODUCTION_KEY)
                .json(&funding),
        )
        .await;
    assert_eq!(
        status_and_message(&answer),
        (400, Some("Funding simulation is only available in staging"))
    );
    let gif = reqwest::multipart::Part::bytes(b"GIF89a, not an accepted type".to_vec())
        .file_name("picture.gif")
        .mime_str("image/gif")
        .expect("a valid MIME type");
    let answer = run
        .raw(
            "uploadDocument of a GIF (415)",
            run.post("/api/upload-document", STAGING_KEY)
                .multipart(reqwest::multipart::Form::new().part("file", gif)),
        )
        .await;
    assert_eq!(
        status_and_message(&answer),
        (
            415,
            Some("Unsupported file type: only JPEG, PNG and PDF are accepted")
        )
    );
    let mut large = ngn_payout_json("prism-raw-2");
    large["padding"] = json!("x".repeat(1_100_000));
    let answer = run
        .raw(
            "createPayout over the JSON size limit (413)",
            run.post("/api/payout", STAGING_KEY).json(&large),
        )
        .await;
    assert_eq!(
        status_and_message(&answer),
        (413, Some("Request body is larger than 1048576 bytes"))
    );

    // Every operation of the spec answered its 2xx through the strict Prism.
    let coverage = run.coverage();
    let missing: Vec<&str> = run
        .operations
        .iter()
        .filter(|operation| {
            !coverage
                .get(&operation.id)
                .is_some_and(|statuses| statuses.contains(&operation.success_status()))
        })
        .map(|operation| operation.id.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "operations never answered 2xx: {missing:?}"
    );
    let violations = run.strict.violation_lines();
    assert!(
        violations.is_empty(),
        "Prism logged violations: {violations:#?}"
    );
    eprintln!(
        "prism proxy: both Prisms ready in {:.1} s; {} steps, {} operations, {} requests through the strict proxy and {} through the lenient one in {:.1} s; statuses per operation: {coverage:?}",
        ready.as_secs_f64(),
        run.steps,
        run.operations.len(),
        run.strict_recorder.count(),
        run.lenient_recorder.count(),
        (started.elapsed() - ready).as_secs_f64(),
    );
    // Deliveries of the webhook happened in the background; none is judged
    // by Prism (callbacks are not proxied), but they were attempted.
    let delivered = receiver.wait_for(2, Duration::from_secs(10)).await;
    assert_eq!(delivered.len(), 2);
}

fn ngn_payout_json(session_id: &str) -> Value {
    json!({
        "amount": "10", "fromCurrency": "NGN", "toCurrency": "NGN", "sessionId": session_id,
        "accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR",
        "bankName": "Guaranty Trust Bank", "bankCode": "058",
    })
}
