//! Bringing your own `reqwest::Client`: a proxy, your own timeouts and a
//! connection pool shared with the rest of your application. The SDK still
//! adds the API key (as a sensitive header) and its user agent to each
//! request.
//!
//! ```sh
//! HTTPS_PROXY=http://proxy.internal:3128 \
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --example custom_http_client
//! ```

use std::time::Duration;

use crossborder::{Client, Currency, Error};

#[tokio::main]
async fn main() -> Result<(), Error> {
    let builder = crossborder::ClientBuilder::from_env();
    // The SDK's TLS configuration (reqwest is built without a crypto
    // provider of its own under the SDK's default `rustls` feature), and no
    // redirect followed, so the key never goes to another host.
    let mut http = builder
        .http_client_builder()?
        // The builder's timeouts do not apply to a client built elsewhere:
        // set them here.
        .timeout(Duration::from_secs(20))
        .connect_timeout(Duration::from_secs(5))
        .pool_idle_timeout(Duration::from_secs(60));
    if let Ok(proxy) = std::env::var("HTTPS_PROXY") {
        let proxy =
            reqwest::Proxy::all(&proxy).map_err(|e| Error::Config(format!("HTTPS_PROXY: {e}")))?;
        http = http.proxy(proxy);
    }
    let http = http
        .build()
        .map_err(|e| Error::Config(format!("HTTP client: {e}")))?;

    let client = builder.http_client(http).build()?;
    let balance = client.wallet().balance(Currency::Ngn).await?;
    println!("{balance} (through {})", client.base_url());
    let _: &Client = &client;
    Ok(())
}
