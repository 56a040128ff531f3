//! `client.banks()`.

use crossborder_api::types as wire;

use crate::execute::Operation;
use crate::{Bank, Client, Currency, ResolveAccountRequest, ResolvedAccount, Result};

/// Bank lists and account resolution. Obtained with [`Client::banks`].
#[derive(Debug, Clone, Copy)]
pub struct Banks<'a> {
    pub(crate) client: &'a Client,
}

impl Banks<'_> {
    /// The banks a payout from `from` to `to` can be sent to
    /// (`GET /api/bank-list/{from}/{to}`).
    pub async fn list(&self, from: Currency, to: Currency) -> Result<Vec<Bank>> {
        let api = self.client.api();
        let response = self
            .client
            .send(Operation::get("getBankList"), || {
                api.get_bank_list()
                    .from_currency(from)
                    .to_currency(to)
                    .send()
            })
            .await?;
        Ok(response
            .into_inner()
            .data
            .into_iter()
            .map(Bank::from)
            .collect())
    }

    /// Verifies an account number against a bank and returns the name on the
    /// account, before a payout (`POST /api/resolve-bank`).
    pub async fn resolve(&self, request: &ResolveAccountRequest) -> Result<ResolvedAccount> {
        let api = self.client.api();
        let body = wire::ResolveBankRequest {
            account_number: request.account_number.clone(),
            bank_code: request.bank_code.clone(),
            from_currency: request.from_currency,
            to_currency: request.to_currency,
        };
        let response = self
            .client
            .send(Operation::write("resolveBank", "POST"), || {
                api.resolve_bank().body(body.clone()).send()
            })
            .await?;
        Ok(response.into_inner().data.into())
    }
}
