//! The shared state of a running sandbox: configuration, keys and their
//! accounts, identifier generation, webhook delivery and documents.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use crate::background::webhook_delivery::WebhookSender;
use crate::config::{Environment, SandboxConfig};
use crate::faults::FaultEngine;
use crate::ids::IdGenerator;
use crate::store::account::{Account, BusinessId};
use crate::store::documents::DocumentStore;
use crate::store::requests::RequestHistory;

/// Cheap to clone: every handler gets one.
#[derive(Clone)]
pub(crate) struct AppState(Arc<Shared>);

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("base_url", &self.0.base_url)
            .finish_non_exhaustive()
    }
}

struct Shared {
    config: SandboxConfig,
    keys: HashMap<String, KeyEntry>,
    ids: IdGenerator,
    webhooks: WebhookSender,
    documents: DocumentStore,
    requests: RequestHistory,
    faults: Arc<FaultEngine>,
    base_url: String,
}

/// What an API key gives access to.
pub(crate) struct KeyEntry {
    /// The business behind the key.
    pub(crate) business: BusinessId,
    /// From the key's prefix.
    pub(crate) environment: Environment,
    /// Whether the business may use the API at all.
    pub(crate) api_access: bool,
    /// The business's state, behind one lock so that every operation on it
    /// (a balance check and its debit, an idempotency check and its record)
    /// is atomic.
    pub(crate) account: Arc<Mutex<Account>>,
}

impl AppState {
    /// Builds the state: one fresh account per configured key.
    pub(crate) fn new(
        config: SandboxConfig,
        webhooks: WebhookSender,
        base_url: String,
    ) -> AppState {
        let keys = config
            .keys
            .iter()
            .enumerate()
            .map(|(index, spec)| {
                let entry = KeyEntry {
                    business: BusinessId::new(index),
                    environment: spec.environment(),
                    api_access: spec.has_api_access(),
                    account: Arc::new(Mutex::new(Account::new(
                        &config.starting_balances,
                        config.payout_settlement,
                    ))),
                };
                (spec.key().to_owned(), entry)
            })
            .collect();
        let documents = DocumentStore::new(config.max_upload_bytes);
        let faults = Arc::new(FaultEngine::new(config.faults.clone()));
        webhooks.attach_faults(Arc::clone(&faults));
        AppState(Arc::new(Shared {
            config,
            keys,
            ids: IdGenerator::default(),
            webhooks,
            documents,
            requests: RequestHistory::default(),
            faults,
            base_url,
        }))
    }

    /// The configuration the sandbox was started with.
    pub(crate) fn config(&self) -> &SandboxConfig {
        &self.0.config
    }

    /// The current time of the sandbox's clock.
    pub(crate) fn now(&self) -> SystemTime {
        self.0.config.clock.now()
    }

    /// The entry of an API key.
    pub(crate) fn key(&self, key: &str) -> Option<&KeyEntry> {
        self.0.keys.get(key)
    }

    /// The business whose key a `/v1` request carries, if the key is
    /// known: whose request log and fault draws the request belongs to
    /// (the control API's own requests belong to neither).
    pub(crate) fn api_request_owner(&self, request: &axum::extract::Request) -> Option<BusinessId> {
        if !request.uri().path().starts_with("/v1/") {
            return None;
        }
        let key = request
            .headers()
            .get(crossborder_api::API_KEY_HEADER)?
            .to_str()
            .ok()?;
        self.key(key.trim()).map(|entry| entry.business)
    }

    /// Every business's account, for the expiry sweep.
    pub(crate) fn accounts(&self) -> impl Iterator<Item = &Arc<Mutex<Account>>> {
        self.0.keys.values().map(|entry| &entry.account)
    }

    /// Every business's account with the business behind it.
    pub(crate) fn businesses(&self) -> impl Iterator<Item = (BusinessId, &Arc<Mutex<Account>>)> {
        self.0
            .keys
            .values()
            .map(|entry| (entry.business, &entry.account))
    }

    /// The identifier generator.
    pub(crate) fn ids(&self) -> &IdGenerator {
        &self.0.ids
    }

    /// The webhook sender and its delivery log.
    pub(crate) fn webhooks(&self) -> &WebhookSender {
        &self.0.webhooks
    }

    /// Uploaded documents.
    pub(crate) fn documents(&self) -> &DocumentStore {
        &self.0.documents
    }

    /// The last requests of each business.
    pub(crate) fn requests(&self) -> &RequestHistory {
        &self.0.requests
    }

    /// The injected faults and each business's fault settings.
    pub(crate) fn faults(&self) -> &FaultEngine {
        &self.0.faults
    }

    /// `http://HOST:PORT/v1`.
    pub(crate) fn base_url(&self) -> &str {
        &self.0.base_url
    }
}
