//! The operations, grouped by resource.

mod banks;
mod businesses;
mod collections;
mod payouts;
mod quotes;
mod sandbox;
mod wallet;
mod webhooks;

pub use banks::Banks;
pub use businesses::Businesses;
pub use collections::Collections;
pub use payouts::{Created, Payouts};
pub use quotes::Quotes;
pub use sandbox::Sandbox;
pub use wallet::Wallet;
pub use webhooks::Webhooks;

pub(crate) use collections::get_transaction;
