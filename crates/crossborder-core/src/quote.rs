//! The lifetime of a quote.

use std::time::Duration;

/// How long a quote's `rateKey` is accepted after it is issued when the
/// service does not say (`expiresAt`): 300 s, the documented lifetime. The
/// SDK's expiry check and the sandbox's default use it.
pub const QUOTE_LIFETIME: Duration = Duration::from_secs(300);
