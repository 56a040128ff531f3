//! What these tests share: the test kit's sandbox (a manual clock, raw
//! requests with a key, the error shape), and the steps these tests take
//! on it: collections, fundings, reads, a webhook receiver that answers 200.

use std::ops::Deref;
use std::time::Duration;

use axum::routing::post;
use axum::Router;
use crossborder_sandbox::STAGING_KEY;
use crossborder_testkit::{assert_error_body, TestSandbox};
pub use crossborder_testkit::{read_reply as reply, Reply};
use reqwest::Method;
use serde_json::{json, Value};

/// The test kit's sandbox, with the steps of these tests.
pub struct Api {
    kit: TestSandbox,
}

impl Deref for Api {
    type Target = TestSandbox;

    fn deref(&self) -> &TestSandbox {
        &self.kit
    }
}

impl Api {
    /// A sandbox with the default keys, on the kit's manual clock.
    pub async fn start() -> Api {
        Api {
            kit: TestSandbox::start().await,
        }
    }

    /// The kit's HTTP client, for requests the kit does not shape.
    pub fn client(&self) -> &reqwest::Client {
        &self.kit.http
    }

    /// `method` on `path` (under /v1) with `key` and a JSON body.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        key: Option<&str>,
        body: Option<&Value>,
    ) -> Reply {
        self.kit.raw(method, path, key, body).await
    }

    /// The staging business's balance in `currency`, as the JSON number.
    pub async fn balance(&self, currency: &str) -> Value {
        let reply = self.get(&format!("/api/balance/{currency}")).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["data"]["balance"].clone()
    }

    /// A collection; returns its memo (`payRefrence`).
    pub async fn collection(&self, reference: &str, amount: Value, from: &str, to: &str) -> String {
        let mut body = json!({"amount": amount, "fromCurrency": from, "toCurrency": to,
                              "paymentReference": reference});
        if from != to {
            let quote = self.get(&format!("/api/qoutes/{from}/{to}/1")).await;
            assert_eq!(quote.status, 200, "{}", quote.text);
            body["rateKey"] = quote.body["data"]["rateKey"].clone();
        }
        let created = self.post("/api/initiate-payment", &body).await;
        assert_eq!(created.status, 200, "{}", created.text);
        created.body["data"]["payRefrence"]
            .as_str()
            .expect("a memo")
            .to_owned()
    }

    /// A simulated funding.
    pub async fn fund(&self, currency: &str, amount: Value, memo: &str, session: &str) -> Reply {
        self.post(
            "/api/simulate-funding",
            &json!({"currency": currency, "amount": amount, "narration": memo,
                    "sessionId": session}),
        )
        .await
    }

    /// The transaction `reference` as read back.
    pub async fn transaction(&self, reference: &str) -> Value {
        let read = self.get(&format!("/api/transaction/{reference}")).await;
        assert_eq!(read.status, 200, "{}", read.text);
        read.body["data"].clone()
    }

    /// Starts a receiver answering 200 and registers it as the webhook.
    pub async fn register_receiver(&self) {
        let app = Router::new().route("/hook", post(|| async { "ok" }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binds");
        let url = format!("http://{}/hook", listener.local_addr().expect("bound"));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        self.set_webhook(&url).await;
    }

    /// Registers `url` as the staging business's webhook.
    pub async fn set_webhook(&self, url: &str) {
        let set = self
            .send(
                Method::PUT,
                "/api/set-webhook",
                Some(STAGING_KEY),
                Some(&json!({"webhookUrl": url})),
            )
            .await;
        assert_eq!(set.status, 200, "{}", set.text);
    }

    /// The bodies of every webhook sent so far, once `count` were sent, and
    /// after making sure no further one follows: the sends run in the
    /// background, so a send that should not exist is given time to show.
    pub async fn exactly_webhooks(&self, count: usize) -> Vec<Value> {
        self.sandbox
            .wait_for_webhook_deliveries(count, Duration::from_secs(10))
            .await;
        let after = self
            .sandbox
            .wait_for_webhook_deliveries(count + 1, Duration::from_millis(500))
            .await;
        assert_eq!(after.len(), count, "{after:#?}");
        after.iter().map(|delivery| delivery.json()).collect()
    }
}

/// The API's error shape with this status and message, for `method` on
/// `path` (under /v1).
pub fn assert_error(reply: &Reply, status: u16, message: &str, method: &str, path: &str) {
    assert_error_body(reply, status, message, method, path);
}
