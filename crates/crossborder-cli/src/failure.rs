//! How a failed command ends: one clear line on stderr (every violation for
//! a validation error), never a debug dump and never the key, and the exit
//! code that tells a script what kind of failure it was.

use std::process::ExitCode;

use crossborder::{error::Violations, Error};

/// Exit code of a usage or validation error (nothing was sent).
pub const USAGE: u8 = 2;
/// Exit code of an API or network error.
pub const API: u8 = 1;
/// Exit code of a ledger whose database cannot be opened or used
/// (unreachable, refused, not a ledger, damaged, full).
pub const DATABASE: u8 = 3;

/// A failed command: its stderr lines and exit code.
#[derive(Debug)]
pub struct Failure {
    pub lines: Vec<String>,
    pub code: u8,
}

impl Failure {
    /// A usage error (bad flag value, unreadable file, missing key).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            lines: vec![format!("error: {}", message.into())],
            code: USAGE,
        }
    }

    /// A failure while running (a server that cannot start, an answer that
    /// is not what it should be): exit code 1, as an API or network error.
    pub fn runtime(message: impl Into<String>) -> Failure {
        Failure {
            lines: vec![format!("error: {}", message.into())],
            code: API,
        }
    }

    /// Violations found before sending: a header line, then one per field.
    pub fn invalid(violations: &Violations) -> Failure {
        let mut lines = vec![format!(
            "error: invalid request ({} violation{}); nothing was sent",
            violations.len(),
            if violations.len() == 1 { "" } else { "s" }
        )];
        lines.extend(
            violations
                .iter()
                .map(|v| format!("  {}: {}", v.field, v.message)),
        );
        Failure { lines, code: USAGE }
    }

    pub fn print(&self) -> ExitCode {
        use std::io::Write as _;
        let mut stderr = std::io::stderr().lock();
        for line in &self.lines {
            // A closed stderr must not turn an error into a panic.
            let _ = writeln!(stderr, "{line}");
        }
        ExitCode::from(self.code)
    }
}

impl From<Violations> for Failure {
    fn from(violations: Violations) -> Failure {
        Failure::invalid(&violations)
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure::of(&error)
    }
}

impl Failure {
    /// The SDK's own Display: it never contains the key (the SDK's secrecy
    /// tests hold it to that), so it is printed as is.
    pub fn of(error: &Error) -> Failure {
        match error {
            Error::Validation(violations) => Failure::invalid(violations),
            Error::Config(message) => Failure::usage(message.clone()),
            Error::SandboxOnly => Failure::usage(error.to_string()),
            other => Failure {
                lines: vec![format!("error: {other}")],
                code: API,
            },
        }
    }

    /// A failure whose output was printed already: only the exit code.
    pub fn silent(code: u8) -> Failure {
        Failure {
            lines: Vec::new(),
            code,
        }
    }
}
