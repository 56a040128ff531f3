//! `client.webhooks()`.

use crossborder_api::types as wire;

use crate::error::violation;
use crate::execute::Operation;
use crate::{Acknowledgement, Client, Result, Rule};

/// Webhook registration. Obtained with [`Client::webhooks`].
#[derive(Debug, Clone, Copy)]
pub struct Webhooks<'a> {
    pub(crate) client: &'a Client,
}

impl Webhooks<'_> {
    /// Registers the one URL that receives collection status changes,
    /// replacing any earlier one (`PUT /api/set-webhook`). The URL must be
    /// an absolute `http` or `https` URL.
    pub async fn set_url(&self, url: &str) -> Result<Acknowledgement> {
        let valid = reqwest::Url::parse(url)
            .map(|parsed| matches!(parsed.scheme(), "http" | "https"))
            .unwrap_or(false);
        if !valid {
            return Err(violation(
                "webhookUrl",
                Rule::InvalidFormat,
                "must be an absolute http or https URL",
            ));
        }
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
