//! `client.webhooks()`.

use crossborder_api::types as wire;

use crossborder_core::webhook::{validate_set_webhook, SetWebhookFields};

use crate::execute::Operation;
use crate::{Acknowledgement, Client, Error, Result};

/// Webhook registration. Obtained with [`Client::webhooks`].
#[derive(Debug, Clone, Copy)]
pub struct Webhooks<'a> {
    pub(crate) client: &'a Client,
}

impl Webhooks<'_> {
    /// Registers the one URL that receives collection status changes,
    /// replacing any earlier one (`PUT /api/set-webhook`). The URL must be
    /// an absolute `http` or `https` URL
    /// ([`crossborder_core::webhook::validate_set_webhook`]); it is sent trimmed.
    pub async fn set_url(&self, url: &str) -> Result<Acknowledgement> {
        let fields = SetWebhookFields {
            webhook_url: Some(url),
        };
        let url = validate_set_webhook(&fields).map_err(Error::Validation)?;
        let api = self.client.api();
        let body = wire::SetWebhookRequest {
            webhook_url: url.to_owned(),
        };
        let response = self
            .client
            .send(Operation::write("setWebhook", "PUT"), || {
                api.set_webhook().body(body.clone()).send()
            })
            .await?;
        Ok(response.into_inner().into())
    }
}
