//! The test kit's plain HTTP clients, built through the SDK's
//! [`ClientBuilder::http_client_builder`](crossborder::ClientBuilder::http_client_builder)
//! so they carry its TLS configuration. With the SDK's default `rustls`
//! feature reqwest has no crypto provider of its own, and
//! `reqwest::Client::new()` panics ("No rustls crypto provider is
//! configured") in a crate whose only TLS choice is the SDK's.

use std::time::Duration;

/// A plain client with the SDK's TLS configuration and `timeout` per
/// request.
///
/// # Panics
///
/// When the SDK's TLS configuration cannot be built (the platform offers
/// no certificate store), which no test on such a machine can work
/// around.
pub(crate) fn http_client(timeout: Duration) -> reqwest::Client {
    crossborder::Client::builder()
        .http_client_builder()
        .and_then(|builder| {
            builder
                .timeout(timeout)
                .build()
                .map_err(|error| crossborder::Error::Config(error.to_string()))
        })
        .unwrap_or_else(|error| panic!("the HTTP client does not build: {error}"))
}
