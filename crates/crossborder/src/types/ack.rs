//! Responses that carry only a message.

/// The answer of an operation whose response is only a message
/// (`PUT /api/set-webhook`, `POST /api/simulate-funding`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acknowledgement {
    /// The server's human-readable summary.
    pub message: String,
}

impl From<crossborder_api::types::MessageResponse> for Acknowledgement {
    fn from(value: crossborder_api::types::MessageResponse) -> Self {
        Acknowledgement {
            message: value.message,
        }
    }
}
