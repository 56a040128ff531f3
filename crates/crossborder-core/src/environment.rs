//! The environment an API key belongs to, told by its prefix (`live_` or
//! `test_`), and the demo keys of the local sandbox.

use std::fmt;

/// The environment an API key belongs to, given by its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Environment {
    /// Production: keys start with `live_`. Real money moves.
    Production,
    /// Staging: keys start with `test_`. The sandbox operations are allowed.
    Staging,
}

impl Environment {
    /// The prefix of every production key.
    pub const PRODUCTION_PREFIX: &'static str = "live_";
    /// The prefix of every staging key.
    pub const STAGING_PREFIX: &'static str = "test_";

    /// The environment of a key from its prefix, or `None` when it starts
    /// with neither `live_` nor `test_`.
    ///
    /// ```
    /// use crossborder_core::Environment;
    ///
    /// assert_eq!(Environment::of_key("live_abc"), Some(Environment::Production));
    /// assert_eq!(Environment::of_key("test_abc"), Some(Environment::Staging));
    /// assert_eq!(Environment::of_key("sk_abc"), None);
    /// ```
    pub fn of_key(key: &str) -> Option<Environment> {
        if key.starts_with(Environment::PRODUCTION_PREFIX) {
            Some(Environment::Production)
        } else if key.starts_with(Environment::STAGING_PREFIX) {
            Some(Environment::Staging)
        } else {
            None
        }
    }

    /// True for [`Environment::Production`].
    pub fn is_production(self) -> bool {
        self == Environment::Production
    }

    /// `production` or `staging`.
    pub fn as_str(self) -> &'static str {
        match self {
            Environment::Production => "production",
            Environment::Staging => "staging",
        }
    }
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The local sandbox's default staging key: a staging business with API
/// access (the CLI's default key too).
pub const SANDBOX_STAGING_KEY: &str = "test_sandbox_key";
/// The local sandbox's default production key: a production business with
/// API access (simulate-funding is refused for it, as in production).
pub const SANDBOX_PRODUCTION_KEY: &str = "live_sandbox_key";
/// The local sandbox's default key of a staging business without API
/// access: every request with it is 401.
pub const SANDBOX_NO_ACCESS_KEY: &str = "test_noaccess_key";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_keys_belong_to_their_environments() {
        assert_eq!(
            Environment::of_key(SANDBOX_STAGING_KEY),
            Some(Environment::Staging)
        );
        assert_eq!(
            Environment::of_key(SANDBOX_NO_ACCESS_KEY),
            Some(Environment::Staging)
        );
        assert_eq!(
            Environment::of_key(SANDBOX_PRODUCTION_KEY),
            Some(Environment::Production)
        );
        assert_eq!(Environment::of_key("Live_abc"), None);
        assert_eq!(Environment::Production.to_string(), "production");
        assert_eq!(Environment::Staging.to_string(), "staging");
    }
}
