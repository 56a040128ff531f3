//! Helpers shared by the tests.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::routing::post;
use axum::Router;
use crossborder_sandbox::{Clock, Sandbox, SandboxConfig, SandboxHandle, STAGING_KEY};
use reqwest::Method;
use serde_json::Value;

/// 2026-11-21T12:00:00Z, the instant the manual clocks start at.
pub fn start_instant() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_795_262_400)
}

/// A running sandbox and a client for it.
pub struct Api {
    pub sandbox: SandboxHandle,
    pub client: reqwest::Client,
    pub clock: Clock,
}

/// A response: status, parsed JSON body (Null if not JSON) and raw text.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub text: String,
}

impl Api {
    /// A sandbox on a manual clock at [`start_instant`].
    pub async fn start() -> Api {
        Api::start_with(SandboxConfig::default()).await
    }

    /// A sandbox with `config`, on a manual clock at [`start_instant`].
    pub async fn start_with(config: SandboxConfig) -> Api {
        let clock = Clock::manual(start_instant());
        let sandbox = Sandbox::start(config.with_clock(clock.clone()))
            .await
            .expect("sandbox starts");
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client builds");
        Api {
            sandbox,
            client,
            clock,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.sandbox.base_url())
    }

    /// Sends a request with an optional key and JSON body.
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
        reply(request.send().await.expect("request is answered")).await
    }

    /// GET with the staging key.
    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, Some(STAGING_KEY), None).await
    }

    /// POST with the staging key.
    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.send(Method::POST, path, Some(STAGING_KEY), Some(body))
            .await
    }

    /// POST a raw body with the staging key.
    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> Reply {
        let request = self
            .client
            .post(self.url(path))
            .header("x-api-key", STAGING_KEY)
            .header("content-type", "application/json")
            .body(body);
        reply(request.send().await.expect("request is answered")).await
    }

    /// The staging key's balance in `currency`, as text.
    pub async fn balance(&self, key: &str, currency: &str) -> String {
        let reply = self
            .send(
                Method::GET,
                &format!("/api/balance/{currency}"),
                Some(key),
                None,
            )
            .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["data"]["balance"].to_string()
    }

    /// A quote's rateKey.
    pub async fn rate_key(&self, from: &str, to: &str, amount: &str) -> String {
        let reply = self.get(&format!("/api/qoutes/{from}/{to}/{amount}")).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["data"]["rateKey"].as_str().unwrap().to_owned()
    }
}

pub async fn reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let text = response.text().await.expect("body is read");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply { status, body, text }
}

/// Checks the full error shape.
pub fn assert_error(reply: &Reply, status: u16, message: &str, method: &str, url: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    let body = &reply.body;
    assert_eq!(body["statusCode"], status, "{}", reply.text);
    assert_eq!(body["message"], message, "{}", reply.text);
    let path = url.split('?').next().unwrap();
    assert_eq!(body["path"], format!("/v1{path}"), "{}", reply.text);
    assert_eq!(body["request"]["method"], method, "{}", reply.text);
    assert_eq!(
        body["request"]["url"],
        format!("/v1{url}"),
        "{}",
        reply.text
    );
    let timestamp = body["timestamp"].as_str().expect("timestamp is a string");
    assert_eq!(timestamp.len(), 24, "{timestamp}");
    assert!(
        timestamp.ends_with('Z') && &timestamp[10..11] == "T",
        "{timestamp}"
    );
}

/// A valid NGN payout body.
pub fn ngn_payout(session_id: &str, amount: &str) -> Value {
    serde_json::json!({
        "amount": amount,
        "fromCurrency": "NGN",
        "toCurrency": "NGN",
        "narration": "Invoice 2291",
        "sessionId": session_id,
        "accountNumber": "0123456789",
        "accountName": "ADAEZE OKAFOR",
        "bankName": "Guaranty Trust Bank",
        "bankCode": "058"
    })
}

/// Creates an NGN collection and returns its (paymentReference, payRefrence).
pub async fn ngn_collection(api: &Api, reference: &str, amount: u64) -> String {
    let reply = api
        .post(
            "/api/initiate-payment",
            &serde_json::json!({
                "amount": amount,
                "fromCurrency": "NGN",
                "toCurrency": "NGN",
                "paymentReference": reference
            }),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["data"]["payRefrence"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A local webhook receiver recording every body it gets.
pub struct Receiver {
    pub url: String,
    pub bodies: Arc<Mutex<Vec<Value>>>,
    _server: tokio::task::JoinHandle<()>,
}

impl Receiver {
    pub async fn start() -> Receiver {
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&bodies);
        let app = Router::new().route(
            "/hook",
            post(move |body: String| {
                let recorded = Arc::clone(&recorded);
                async move {
                    let value = serde_json::from_str(&body).unwrap_or(Value::Null);
                    recorded.lock().unwrap().push(value);
                    "ok"
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Receiver {
            url,
            bodies,
            _server: server,
        }
    }

    pub fn received(&self) -> Vec<Value> {
        self.bodies.lock().unwrap().clone()
    }
}
