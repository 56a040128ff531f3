//! Helpers shared by the tests: the test kit's sandbox (raw requests with
//! the staging key by default), and what only these tests need.

use std::sync::{Arc, Mutex};

use axum::routing::post;
use axum::Router;
use serde_json::Value;

pub use crossborder_testkit::fixtures::ngn_payout_json as ngn_payout;
pub use crossborder_testkit::{
    assert_error_body as assert_error, read_reply as reply, Reply, TestSandbox as Api,
};

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
