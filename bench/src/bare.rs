//! The limit of the sandbox's stack on this machine: a bare axum handler
//! answering `GET /v1/api/balance/NGN` with the same bytes the sandbox
//! answers, with no state, authentication or middleware. Run as a hidden
//! subcommand of this binary (`crossborder-bench bare-server`), in its own
//! process like the sandbox, on tokio's default multi-threaded runtime like
//! the sandbox's `#[tokio::main]`.

use std::path::Path;

use anyhow::{Context, Result};
use axum::http::header::CONTENT_TYPE;
use axum::routing::get;
use axum::Router;
use bytes::Bytes;

pub fn serve(port: u16, body_file: &Path) -> Result<()> {
    let body = Bytes::from(
        std::fs::read(body_file).with_context(|| format!("reading {}", body_file.display()))?,
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("building the tokio runtime")?;
    runtime.block_on(async move {
        let app = Router::new().route(
            super::BALANCE_PATH,
            get(move || {
                let body = body.clone();
                async move { ([(CONTENT_TYPE, "application/json")], body) }
            }),
        );
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .with_context(|| format!("binding 127.0.0.1:{port}"))?;
        axum::serve(listener, app).await.context("serving")
    })
}
