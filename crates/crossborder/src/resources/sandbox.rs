//! `client.sandbox()`.

use crossborder_api::decimal::Amount;
use crossborder_api::types as wire;

use crate::error::{violation, Error, Rule};
use crate::types::{Acknowledgement, SimulateFundingRequest};
use crate::{Client, Result};

/// Staging-only simulations. Obtained with [`Client::sandbox`]; every
/// operation fails with [`Error::SandboxOnly`] under a production (`live_`)
/// key, before anything is sent.
#[derive(Debug, Clone, Copy)]
pub struct Sandbox<'a> {
    pub(crate) client: &'a Client,
}

impl Sandbox<'_> {
    fn ensure_staging(&self) -> Result<()> {
        if self.client.environment().is_production() {
            Err(Error::SandboxOnly)
        } else {
            Ok(())
        }
    }

    /// Simulates the payer of a collection paying
    /// (`POST /api/simulate-funding`): the wallet `request.currency` names,
    /// which must be the collection's `toCurrency`, is credited with the
    /// amount, the transaction can then be read by polling, and the webhook
    /// fires when the collection's status changes. `narration` must be the
    /// collection's `payRefrence` memo.
    ///
    /// The request is checked first ([`SimulateFundingRequest::validate`]).
    /// Never retried unless the request provably did not reach the server;
    /// a retry carries the same `session_id`.
    pub async fn simulate_funding(
        &self,
        request: &SimulateFundingRequest,
    ) -> Result<Acknowledgement> {
        self.ensure_staging()?;
        request.validate().map_err(Error::Validation)?;
        let body = wire::SimulateFundingRequest {
            currency: request.currency,
            amount: Amount::new(request.amount),
            narration: request.narration.clone(),
            session_id: request
                .session_id
                .as_str()
                .try_into()
                .map_err(|e| violation("sessionId", Rule::InvalidFormat, format!("{e}")))?,
        };
        let answer = self
            .client
            .write("simulateFunding", "POST", body, |api, body| {
                api.simulate_funding().body(body).send()
            })
            .await?;
        Ok(answer.into())
    }
}
