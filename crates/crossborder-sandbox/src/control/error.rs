//! A refused control action, as [`SandboxHandle`](crate::SandboxHandle)'s
//! methods return it: the status and message the HTTP route answers.

use std::fmt;

use crate::http::error::ApiError;

/// Why a control action was refused: the HTTP status the control API
/// answers (404 unknown object, 409 not in a state the action applies to,
/// 400 a bad value, 401 an unknown key) and its message, word for word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlError {
    status: u16,
    message: String,
    fields: Vec<(String, String)>,
}

impl ControlError {
    /// The HTTP status the route answers.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The message, as in the error body's `message`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Each field at fault with its rule, as in the error body's `errors`.
    pub fn fields(&self) -> &[(String, String)] {
        &self.fields
    }
}

impl fmt::Display for ControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}

impl std::error::Error for ControlError {}

impl From<ApiError> for ControlError {
    fn from(error: ApiError) -> ControlError {
        ControlError {
            status: error.status.as_u16(),
            message: error.message,
            fields: error
                .errors
                .into_iter()
                .map(|field| (field.field, field.message))
                .collect(),
        }
    }
}
