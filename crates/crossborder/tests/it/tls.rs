//! TLS with the default `rustls` feature: the SDK reaches a local HTTPS
//! server whose certificate chains to a custom root given with
//! `ClientBuilder::root_certificate_pem`, refuses it without that root, and
//! installs no process-wide crypto provider. The certificates
//! (`tests/tls/`, for 127.0.0.1, valid until 2125) are test fixtures.
#![cfg(all(feature = "rustls", not(feature = "native-tls")))]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use crossborder::{Client, Currency, Error};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;

const ROOT: &[u8] = include_bytes!("tls/ca.pem");
const SERVER_CERT: &[u8] = include_bytes!("tls/server.pem");
const SERVER_KEY: &[u8] = include_bytes!("tls/server.key");

const BODY: &str =
    r#"{"message":"Balance retrieved successfully","data":{"balance":1500.25},"error":false}"#;

/// An HTTPS server on 127.0.0.1 answering every request with a balance.
async fn https_server() -> String {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(SERVER_CERT)
        .collect::<Result<_, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(SERVER_KEY).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(stream).await else {
                    return;
                };
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match tls.read(&mut byte).await {
                        Ok(1) => head.push(byte[0]),
                        _ => return,
                    }
                }
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{BODY}",
                    BODY.len()
                );
                let _ = tls.write_all(answer.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    format!("https://127.0.0.1:{}/v1", addr.port())
}

fn client(base_url: &str, root: Option<&[u8]>) -> Client {
    let mut builder = common::builder(base_url).timeout(Duration::from_secs(10));
    if let Some(root) = root {
        builder = builder.root_certificate_pem(root);
    }
    builder.build().unwrap()
}

#[tokio::test]
async fn https_to_a_server_under_a_custom_root() {
    let base_url = https_server().await;
    let balance = client(&base_url, Some(ROOT))
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap();
    assert_eq!(balance.amount, common::dec("1500.25"));

    // Without the root the certificate is refused: verification is on.
    let error = client(&base_url, None)
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Transport(_)), "{error:?}");

    // The SDK's provider is its own configuration's, not the process's.
    assert!(rustls::crypto::CryptoProvider::get_default().is_none());
}

#[test]
fn a_root_that_is_not_pem_is_a_configuration_error() {
    let error = Client::builder()
        .api_key(common::KEY)
        .base_url("https://127.0.0.1:1/v1")
        .root_certificate_pem(&b"not a certificate"[..])
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "configuration error: invalid root certificate: no PEM certificate found"
    );
}
