//! A typed mock per operation of the API, as oxide.rs generates them for
//! httpmock: `mock::balance("NGN")` is `GET /v1/api/balance/NGN` with the
//! staging key ([`super::KEY`]) in `x-api-key`, ready for more matchers and
//! a response. Each path is written here once, and no test can forget to
//! check the key: a request without it is not answered.

use std::fmt::Display;

use serde_json::Value;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockBuilder, MockServer, ResponseTemplate};

fn at(verb: &str, route: String) -> MockBuilder {
    Mock::given(method(verb))
        .and(path(format!("/v1/api/{route}")))
        .and(header("x-api-key", super::KEY))
}

/// `GET /api/qoutes/{from}/{to}/{amount}` (getQuote, the service's spelling).
pub fn quote(from: impl Display, to: impl Display, amount: impl Display) -> MockBuilder {
    at("GET", format!("qoutes/{from}/{to}/{amount}"))
}

/// `POST /api/initiate-payment` (initiatePayment).
pub fn initiate_payment() -> MockBuilder {
    at("POST", "initiate-payment".into())
}

/// `GET /api/transaction/{reference}` (getTransaction).
pub fn transaction(reference: impl Display) -> MockBuilder {
    at("GET", format!("transaction/{reference}"))
}

/// `GET /api/balance/{currency}` (getBalance).
pub fn balance(currency: impl Display) -> MockBuilder {
    at("GET", format!("balance/{currency}"))
}

/// `GET /api/bank-list/{from}/{to}` (getBankList).
pub fn bank_list(from: impl Display, to: impl Display) -> MockBuilder {
    at("GET", format!("bank-list/{from}/{to}"))
}

/// `POST /api/resolve-bank` (resolveBank).
pub fn resolve_bank() -> MockBuilder {
    at("POST", "resolve-bank".into())
}

/// `POST /api/payout` (createPayout).
pub fn payout() -> MockBuilder {
    at("POST", "payout".into())
}

/// `POST /api/upload-document` (uploadDocument).
pub fn upload_document() -> MockBuilder {
    at("POST", "upload-document".into())
}

/// `POST /api/business` (createBusiness).
pub fn create_business() -> MockBuilder {
    at("POST", "business".into())
}

/// `GET /api/business/{id}` (getBusiness).
pub fn business(id: impl Display) -> MockBuilder {
    at("GET", format!("business/{id}"))
}

/// `PATCH /api/business/{id}` (updateBusiness).
pub fn update_business(id: impl Display) -> MockBuilder {
    at("PATCH", format!("business/{id}"))
}

/// `POST /api/business/{id}/{role}` with `role` `director` (addDirector) or
/// `ubo` (addUbo).
pub fn person(id: impl Display, role: impl Display) -> MockBuilder {
    at("POST", format!("business/{id}/{role}"))
}

/// `PUT /api/set-webhook` (setWebhook).
pub fn set_webhook() -> MockBuilder {
    at("PUT", "set-webhook".into())
}

/// `POST /api/simulate-funding` (simulateFunding).
pub fn simulate_funding() -> MockBuilder {
    at("POST", "simulate-funding".into())
}

/// A 200 with `body` as JSON.
pub fn ok(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

/// The API's documented error body ([`super::error_body`]) with `status`.
pub fn refusal(status: u16, message: &str, path: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(super::error_body(status, message, path))
}

/// A typed mock mounted with its answer in one step.
pub trait Answers {
    /// Answers every matching request with `answer`.
    async fn answers(self, server: &MockServer, answer: ResponseTemplate);
    /// Answers exactly one matching request with `answer`: the server
    /// checks the count when it is dropped.
    async fn answers_once(self, server: &MockServer, answer: ResponseTemplate);
    /// Answers the first `times` matching requests with `answer`, ahead of
    /// any other mock of the same request (which then answers the rest),
    /// as for a failure a retry or a poll must get past. The server checks
    /// when it is dropped that all `times` came.
    async fn answers_first(self, times: u64, server: &MockServer, answer: ResponseTemplate);
}

impl Answers for MockBuilder {
    async fn answers(self, server: &MockServer, answer: ResponseTemplate) {
        self.respond_with(answer).mount(server).await;
    }

    async fn answers_once(self, server: &MockServer, answer: ResponseTemplate) {
        self.respond_with(answer).expect(1).mount(server).await;
    }

    async fn answers_first(self, times: u64, server: &MockServer, answer: ResponseTemplate) {
        self.respond_with(answer)
            .up_to_n_times(times)
            .with_priority(1)
            .expect(times)
            .mount(server)
            .await;
    }
}
