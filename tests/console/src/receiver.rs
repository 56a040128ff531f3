//! The SDK's webhook receiver (`crossborder::webhook::Receiver`) served on
//! a free loopback port, handing each delivery to the test.

use std::time::Duration;

use crossborder::webhook::axum::{self, Router};
use crossborder::webhook::{Delivery, Receiver};
use crossborder::Client;
use tokio::sync::mpsc;

/// A running receiver: its URL, and the deliveries its handler got.
pub struct Hooks {
    /// `http://127.0.0.1:PORT/hooks`, to register with
    /// `client.webhooks().set_url`.
    pub url: String,
    deliveries: mpsc::UnboundedReceiver<Delivery>,
    server: tokio::task::JoinHandle<()>,
}

impl Hooks {
    /// Serves `Receiver::new(client)` at `/hooks` on 127.0.0.1.
    ///
    /// # Panics
    ///
    /// When no loopback port is free.
    pub async fn start(client: &Client) -> Hooks {
        let (handed, deliveries) = mpsc::unbounded_channel();
        let route = Receiver::new(client.clone()).route(move |delivery: Delivery| {
            let handed = handed.clone();
            async move {
                let _ = handed.send(delivery);
            }
        });
        let (listener, addr) = crossborder_testkit::loopback_listener("the receiver").await;
        let url = format!("http://{addr}/hooks");
        let app = Router::new().route("/hooks", route);
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Hooks {
            url,
            deliveries,
            server,
        }
    }

    /// [`Hooks::start`], registered as `client`'s business's webhook URL.
    ///
    /// # Panics
    ///
    /// As [`Hooks::start`], or when the registration is refused.
    pub async fn registered(client: &Client) -> Hooks {
        let hooks = Hooks::start(client).await;
        if let Err(error) = client.webhooks().set_url(&hooks.url).await {
            panic!("set-webhook {}: {error}", hooks.url);
        }
        hooks
    }

    /// The next delivery the handler got, within `within`.
    ///
    /// # Panics
    ///
    /// When none arrives in time.
    pub async fn next(&mut self, within: Duration) -> Delivery {
        match tokio::time::timeout(within, self.deliveries.recv()).await {
            Ok(Some(delivery)) => delivery,
            Ok(None) => panic!("the receiver stopped"),
            Err(_) => panic!("no webhook delivery within {within:?}"),
        }
    }
}

impl Drop for Hooks {
    fn drop(&mut self) {
        self.server.abort();
    }
}
