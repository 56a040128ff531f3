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
pub use payouts::Payouts;
pub use quotes::Quotes;
pub use sandbox::Sandbox;
pub use wallet::Wallet;
pub use webhooks::Webhooks;

pub(crate) use collections::get_transaction;

use crate::Client;

// The handles are reached from the client here, beside them: the client
// does not import its resources, which import it.
impl Client {
    /// Exchange quotes.
    pub fn quotes(&self) -> Quotes<'_> {
        Quotes { client: self }
    }

    /// Collections (inbound payments) and their transactions.
    pub fn collections(&self) -> Collections<'_> {
        Collections { client: self }
    }

    /// Wallet balances.
    pub fn wallet(&self) -> Wallet<'_> {
        Wallet { client: self }
    }

    /// Bank lists and account resolution.
    pub fn banks(&self) -> Banks<'_> {
        Banks { client: self }
    }

    /// Payouts.
    pub fn payouts(&self) -> Payouts<'_> {
        Payouts { client: self }
    }

    /// Sub-business onboarding (KYB).
    pub fn businesses(&self) -> Businesses<'_> {
        Businesses { client: self }
    }

    /// Webhook registration.
    pub fn webhooks(&self) -> Webhooks<'_> {
        Webhooks { client: self }
    }

    /// Staging-only simulations. Every call fails with
    /// [`Error::SandboxOnly`](crate::Error::SandboxOnly) under a production (`live_`) key, before any
    /// request is sent.
    pub fn sandbox(&self) -> Sandbox<'_> {
        Sandbox { client: self }
    }
}
