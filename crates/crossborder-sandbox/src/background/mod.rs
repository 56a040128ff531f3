//! What the sandbox does outside a request: collections lapsing on their
//! own, and webhook deliveries.

pub(crate) mod expiry;
pub(crate) mod webhook_delivery;
