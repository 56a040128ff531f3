//! What these tests share: a sandbox on a manual clock, requests with a
//! key, a webhook receiver that answers 200, and the error shape.

use std::time::{Duration, UNIX_EPOCH};

use axum::routing::post;
use axum::Router;
use crossborder_sandbox::{Clock, Sandbox, SandboxConfig, SandboxHandle, STAGING_KEY};
use reqwest::Method;
use serde_json::{json, Value};

/// A running sandbox and a client for it.
pub struct Api {
    pub sandbox: SandboxHandle,
    pub client: reqwest::Client,
}

/// An answer: status, JSON body (Null when not JSON), raw text.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub text: String,
}

impl Api {
    /// A sandbox with the default keys, on a manual clock.
    pub async fn start() -> Api {
        let clock = Clock::manual(UNIX_EPOCH + Duration::from_secs(1_795_262_400));
        let sandbox = Sandbox::start(SandboxConfig::default().with_clock(clock))
            .await
            .expect("sandbox starts");
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client builds");
        Api { sandbox, client }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.sandbox.base_url())
    }

    /// `method` on `path` (under /v1) with `key` and a JSON body.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        key: Option<&str>,
        body: Option<&Value>,
    ) -> Reply {
        let mut request = self.client.request(method, self.url(path));
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        reply(request.send().await.expect("answered")).await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, Some(STAGING_KEY), None).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.send(Method::POST, path, Some(STAGING_KEY), Some(body))
            .await
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

pub async fn reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let text = response.text().await.expect("body read");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply { status, body, text }
}

/// The API's error shape with this status and message, for `method` on
/// `path` (under /v1).
pub fn assert_error(reply: &Reply, status: u16, message: &str, method: &str, path: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    assert_eq!(reply.body["statusCode"], status, "{}", reply.text);
    assert_eq!(reply.body["message"], message, "{}", reply.text);
    assert_eq!(reply.body["path"], format!("/v1{path}"), "{}", reply.text);
    assert_eq!(reply.body["request"]["method"], method, "{}", reply.text);
    assert_eq!(
        reply.body["request"]["url"],
        format!("/v1{path}"),
        "{}",
        reply.text
    );
    assert!(reply.body["timestamp"].is_string(), "{}", reply.text);
}
