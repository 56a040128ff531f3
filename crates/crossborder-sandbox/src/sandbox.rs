//! Starting and stopping a sandbox.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::background::expiry::spawn_sweeper;
use crate::background::webhook_delivery::{WebhookDelivery, WebhookSender};
use crate::clock::Clock;
use crate::config::{ApiKeySpec, SandboxConfig};
use crate::http::routes::router;
use crate::store::business::{DocumentContent, LinkedDocument, StoredBusiness};
use crate::store::state::AppState;
use crate::sync::lock;

/// How long [`SandboxHandle::shutdown`] waits for open requests to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Why a sandbox could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address could not be bound.
    #[error("could not listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The webhook HTTP client could not be built.
    #[error("could not build the webhook client: {0}")]
    WebhookClient(#[from] reqwest::Error),
}

/// The sandbox server.
///
/// ```no_run
/// # async fn demo() -> Result<(), crossborder_sandbox::StartError> {
/// use crossborder_sandbox::{Sandbox, SandboxConfig};
///
/// let sandbox = Sandbox::start(SandboxConfig::default()).await?;
/// println!("listening on {}", sandbox.base_url()); // http://127.0.0.1:PORT/v1
/// sandbox.shutdown().await;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Sandbox;

impl Sandbox {
    /// Binds `config.addr` (a free loopback port by default) and serves the
    /// API in a background task of the current tokio runtime.
    pub async fn start(config: SandboxConfig) -> Result<SandboxHandle, StartError> {
        let addr = config.addr;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| StartError::Bind { addr, source })?;
        let local_addr = listener
            .local_addr()
            .map_err(|source| StartError::Bind { addr, source })?;
        let base_url = format!("http://{local_addr}/v1");
        let webhooks = WebhookSender::new(config.webhook_timeout)?;
        let keys = config.keys.clone();
        let clock = config.clock.clone();
        let sweep_interval = config.expiry_sweep_interval;
        let limits = crate::limits::Limits {
            head_timeout: config.head_timeout,
            max_connections: config.max_connections,
        };
        let state = AppState::new(config, webhooks.clone(), base_url.clone());
        let sweeper = spawn_sweeper(state.clone(), sweep_interval);
        let app = router(state.clone());

        let (stop, stopped) = oneshot::channel::<()>();
        // Either a shutdown request or a dropped handle stops it.
        let server = tokio::spawn(crate::limits::serve(
            listener,
            app,
            limits,
            stopped,
            SHUTDOWN_GRACE,
        ));
        tracing::info!(%base_url, "sandbox listening");
        Ok(SandboxHandle {
            local_addr,
            base_url,
            keys,
            clock,
            webhooks,
            state,
            stop: Some(stop),
            server: Some(server),
            sweeper,
        })
    }
}

/// A running sandbox. Dropping it stops the server too (without waiting).
#[derive(Debug)]
pub struct SandboxHandle {
    local_addr: SocketAddr,
    base_url: String,
    keys: Vec<ApiKeySpec>,
    clock: Clock,
    webhooks: WebhookSender,
    state: AppState,
    stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<()>>,
    /// The expiry sweep (see `expiry`), stopped with the server.
    sweeper: JoinHandle<()>,
}

impl SandboxHandle {
    /// The base URL clients use: `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The API keys the sandbox accepts.
    pub fn keys(&self) -> &[ApiKeySpec] {
        &self.keys
    }

    /// The clock the sandbox reads (advance it to expire quotes).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The finished webhook delivery attempts, oldest first: the last
    /// [`MAX_WEBHOOK_DELIVERIES`](crate::MAX_WEBHOOK_DELIVERIES) (1000), older
    /// ones are forgotten.
    pub fn webhook_deliveries(&self) -> Vec<WebhookDelivery> {
        self.webhooks.deliveries()
    }

    /// Every sub-business the sandbox stores, of every key's account, by
    /// id: what it received (the document keys exactly as sent, how many
    /// directors and UBOs were added), for tests.
    pub fn businesses(&self) -> Vec<StoredBusiness> {
        let mut all: Vec<StoredBusiness> = self
            .state
            .accounts()
            .flat_map(|account| {
                lock(account)
                    .businesses
                    .values()
                    .map(|record| record.stored())
                    .collect::<Vec<_>>()
            })
            .collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        all
    }

    /// The sub-business `business_id`, as [`businesses`](Self::businesses)
    /// shows it.
    pub fn business(&self, business_id: &str) -> Option<StoredBusiness> {
        self.state.accounts().find_map(|account| {
            lock(account)
                .businesses
                .get(business_id)
                .map(|record| record.stored())
        })
    }

    /// Every document link the sub-business `business_id` sent (in
    /// `documents`, `proofOfAddress` and `sourceOfFund`), resolved as the
    /// service's reviewers would: without an API key, and only to documents
    /// the business's own account uploaded. `None` for an unknown business.
    /// Reading a link over HTTP needs the uploader's key (ASSUMPTIONS.md
    /// B55); this is the sandbox's own view.
    pub fn business_documents(&self, business_id: &str) -> Option<Vec<LinkedDocument>> {
        self.state.businesses().find_map(|(owner, account)| {
            let links = lock(account).businesses.get(business_id)?.links();
            let resolved = links
                .into_iter()
                .map(|(field, url)| {
                    let content = self
                        .state
                        .documents()
                        .resolve(&self.base_url, &url, owner)
                        .map(|(kind, bytes)| DocumentContent {
                            media_type: kind.media_type(),
                            bytes: bytes.to_vec(),
                        });
                    LinkedDocument {
                        field,
                        url,
                        content,
                    }
                })
                .collect();
            Some(resolved)
        })
    }

    /// Waits until at least `count` delivery attempts have finished since
    /// the start (counting those the log no longer keeps), or `timeout` has
    /// passed, and returns the attempts kept (see
    /// [`webhook_deliveries`](Self::webhook_deliveries)).
    pub async fn wait_for_webhook_deliveries(
        &self,
        count: usize,
        timeout: Duration,
    ) -> Vec<WebhookDelivery> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if self.webhooks.finished() >= count || tokio::time::Instant::now() >= deadline {
                return self.webhooks.deliveries();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Stops accepting connections, lets open requests finish (at most
    /// 5 s), then returns.
    pub async fn shutdown(mut self) {
        self.sweeper.abort();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(mut server) = self.server.take() {
            if tokio::time::timeout(SHUTDOWN_GRACE, &mut server)
                .await
                .is_err()
            {
                server.abort();
            }
        }
    }
}

impl Drop for SandboxHandle {
    fn drop(&mut self) {
        self.sweeper.abort();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
