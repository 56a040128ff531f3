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
use crate::control::actions::Control;
use crate::control::{
    BalanceView, BusinessView, CollectionView, ControlError, DeliveryView, PayoutView,
    SandboxState, SettingsView,
};
use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::routes::router;
use crate::settlement::PayoutSettlement;
use crate::store::business::{DocumentContent, LinkedDocument, StoredBusiness};
use crate::store::state::AppState;
use crate::sync::lock;
use crossborder_core::Currency;
use rust_decimal::Decimal;

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

    /// The console page's URL: `http://127.0.0.1:PORT/`.
    pub fn console_url(&self) -> String {
        format!("http://{}/", self.local_addr)
    }

    /// Runs one control action as the business of `key`, as the HTTP
    /// route would (the key is checked as the API checks it).
    fn control<T>(
        &self,
        key: &str,
        act: impl FnOnce(&Control<'_>) -> Result<T, ApiError>,
    ) -> Result<T, ControlError> {
        let caller = Caller::for_key(&self.state, key.trim())?;
        Ok(act(&Control {
            state: &self.state,
            caller: &caller,
        })?)
    }

    /// Everything the business of `key` holds, as `GET /_sandbox/state`
    /// answers it.
    pub fn state(&self, key: &str) -> Result<SandboxState, ControlError> {
        self.control(key, |control| Ok(control.state()))
    }

    /// Pays `amount` of the collection's `fromCurrency` (by default what
    /// remains) into collection `reference` of `key`'s business, through
    /// the funding path of `simulate-funding`: the wallet is credited and
    /// the webhook fires. `POST /_sandbox/collections/{ref}/fund`.
    pub fn fund_collection(
        &self,
        key: &str,
        reference: &str,
        amount: Option<Decimal>,
    ) -> Result<CollectionView, ControlError> {
        self.control(key, |control| control.fund(reference, amount))
    }

    /// Expires the open collection `reference` now (announced by webhook).
    /// `POST /_sandbox/collections/{ref}/expire`.
    pub fn expire_collection(
        &self,
        key: &str,
        reference: &str,
    ) -> Result<CollectionView, ControlError> {
        self.control(key, |control| control.expire(reference))
    }

    /// Approves the submitted business `business_id`.
    /// `POST /_sandbox/businesses/{id}/approve`.
    pub fn approve_business(
        &self,
        key: &str,
        business_id: &str,
    ) -> Result<BusinessView, ControlError> {
        self.control(key, |control| control.approve(business_id))
    }

    /// Rejects the submitted business `business_id` for `reason`.
    /// `POST /_sandbox/businesses/{id}/reject`.
    pub fn reject_business(
        &self,
        key: &str,
        business_id: &str,
        reason: &str,
    ) -> Result<BusinessView, ControlError> {
        self.control(key, |control| control.reject(business_id, reason))
    }

    /// Completes the pending payout `session_id`.
    /// `POST /_sandbox/payouts/{sessionId}/complete`.
    pub fn complete_payout(&self, key: &str, session_id: &str) -> Result<PayoutView, ControlError> {
        self.control(key, |control| control.complete(session_id))
    }

    /// Fails the pending payout `session_id` (for `reason`, by default
    /// [`DEFAULT_FAILURE_REASON`](crate::control::DEFAULT_FAILURE_REASON))
    /// and refunds it in full. `POST /_sandbox/payouts/{sessionId}/fail`.
    pub fn fail_payout(
        &self,
        key: &str,
        session_id: &str,
        reason: Option<&str>,
    ) -> Result<PayoutView, ControlError> {
        self.control(key, |control| control.fail(session_id, reason))
    }

    /// Sends webhook delivery `delivery_id` again to the registered URL, as
    /// a new delivery. `POST /_sandbox/webhooks/{deliveryId}/redeliver`.
    pub fn redeliver_webhook(
        &self,
        key: &str,
        delivery_id: &str,
    ) -> Result<DeliveryView, ControlError> {
        self.control(key, |control| control.redeliver(delivery_id))
    }

    /// Sets the `currency` wallet of `key`'s business to `amount`.
    /// `PUT /_sandbox/balances/{currency}`.
    pub fn set_balance(
        &self,
        key: &str,
        currency: Currency,
        amount: Decimal,
    ) -> Result<BalanceView, ControlError> {
        self.control(key, |control| control.set_balance(currency, amount))
    }

    /// Sets how `key`'s business settles its new payouts.
    /// `PUT /_sandbox/settings`.
    pub fn set_payout_settlement(
        &self,
        key: &str,
        settlement: PayoutSettlement,
    ) -> Result<SettingsView, ControlError> {
        self.control(key, |control| Ok(control.settings(settlement)))
    }

    /// Sets the faults `key`'s business meets, restarting its draws from
    /// the config's seed. `PUT /_sandbox/faults`.
    pub fn set_faults(
        &self,
        key: &str,
        faults: crate::faults::FaultConfig,
    ) -> Result<crate::control::FaultSettingsView, ControlError> {
        self.control(key, |control| Ok(control.set_faults(faults)))
    }

    /// Puts `key`'s business back to its opening state (its webhook URL
    /// and settings stay). `POST /_sandbox/reset`.
    pub fn reset(&self, key: &str) -> Result<SandboxState, ControlError> {
        self.control(key, |control| Ok(control.reset()))
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
