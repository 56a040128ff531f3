//! One module per resource of the API, each answering its operations;
//! only the router ([`crate::http::routes`]) imports them, and none imports
//! another, so what they share lives in [`crate::store`].

pub(crate) mod balance;
pub(crate) mod banks;
pub(crate) mod business;
pub(crate) mod collection;
pub(crate) mod documents;
pub(crate) mod funding;
pub(crate) mod payout;
pub(crate) mod quote;
pub(crate) mod webhook;
