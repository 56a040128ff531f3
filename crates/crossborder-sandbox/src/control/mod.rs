//! The sandbox's control API, beside the API under `/_sandbox`: read
//! everything a business holds, and take the decisions the real service,
//! its reviewers or a payer take (fund or expire a collection, approve or
//! reject a business, complete or fail a payout, redeliver a webhook, set a
//! balance, reset the business, change how payouts settle, set the faults
//! it meets).
//!
//! It is reached with the API's own keys and scoped to the key's business
//! (another business's objects are 404), answers errors in the API's shape,
//! and never leaves a half-applied change. One implementation
//! (`actions`) serves the HTTP routes and
//! [`SandboxHandle`](crate::SandboxHandle)'s methods; the console page is
//! built on the routes. `openapi/sandbox-control.yaml` describes them.

pub(crate) mod actions;
pub(crate) mod body;
mod error;
pub(crate) mod requests;
pub(crate) mod routes;
mod state;
pub(crate) mod view;

pub use crate::store::requests::MAX_REQUESTS_KEPT;
pub use actions::DEFAULT_FAILURE_REASON;
pub use error::ControlError;
pub use routes::ROUTES;
pub use state::{
    BalanceView, BusinessView, CollectionView, DeliveryView, DocumentView, FaultSettingsView,
    FaultView, FundingView, PayoutView, PersonView, RequestView, SandboxState, SettingsView,
};
