//! What a running sandbox keeps: the state shared by every request, each
//! API key's account (wallets, quotes, payouts, collections and their
//! transactions), businesses and their documents, idempotency records and
//! the bank fixtures. Nothing here knows about HTTP routes or handlers.

pub(crate) mod account;
pub mod banks;
pub(crate) mod business;
pub(crate) mod collection_funding;
pub(crate) mod documents;
pub(crate) mod idempotency;
pub(crate) mod records;
pub(crate) mod requests;
pub(crate) mod settlement;
pub(crate) mod state;
pub(crate) mod transaction;
