//! `client.webhooks()`.

use crossborder_api::types as wire;

use crossborder_core::webhook::{
    validate_set_webhook, validate_set_webhook_in_production, SetWebhookFields,
};

use crate::types::Acknowledgement;
use crate::{Client, Error, Result};

/// Webhook registration. Obtained with [`Client::webhooks`].
#[derive(Debug, Clone, Copy)]
pub struct Webhooks<'a> {
    pub(crate) client: &'a Client,
}

impl Webhooks<'_> {
    /// Registers the one URL that receives collection status changes,
    /// replacing any earlier one (`PUT /api/set-webhook`). It is sent
    /// trimmed, and refused before sending ([`Error::Validation`] on
    /// `webhookUrl`) unless it is an absolute `http` or `https` URL
    /// (`webhookUrl: must be an absolute http or https URL`), and, with a
    /// production (`live_`) key, an `https` one or one whose host is
    /// loopback (`webhookUrl: must be an https URL with a production (live_)
    /// key, unless its host is loopback`; ASSUMPTIONS.md C25): events are
    /// unsigned, so plain HTTP would let anyone on the path read or forge
    /// them.
    ///
    /// ```no_run
    /// # async fn run(client: crossborder::Client) -> crossborder::Result<()> {
    /// client.webhooks().set_url("https://shop.example/hooks/crossborder").await?;
    /// # Ok(()) }
    /// ```
    pub async fn set_url(&self, url: &str) -> Result<Acknowledgement> {
        let fields = SetWebhookFields {
            webhook_url: Some(url),
        };
        let url = if self.client.environment().is_production() {
            validate_set_webhook_in_production(&fields)
        } else {
            validate_set_webhook(&fields)
        }
        .map_err(Error::Validation)?;
        let body = wire::SetWebhookRequest {
            webhook_url: url.to_owned(),
        };
        let answer = self
            .client
            .write("setWebhook", "PUT", body, |api, body| {
                api.set_webhook().body(body).send()
            })
            .await?;
        Ok(answer.into())
    }
}
