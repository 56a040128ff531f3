//! `client.banks()`.

use crossborder_api::types as wire;

use crossborder_core::resolve::{validate_resolve_bank, ResolveBankFields};

use crate::types::{Bank, ResolveAccountRequest, ResolvedAccount};
use crate::{Client, Currency, Error, Result};

/// Bank lists and account resolution. Obtained with [`Client::banks`].
#[derive(Debug, Clone, Copy)]
pub struct Banks<'a> {
    pub(crate) client: &'a Client,
}

impl Banks<'_> {
    /// The banks a payout from `from` to `to` can be sent to
    /// (`GET /api/bank-list/{from}/{to}`).
    pub async fn list(&self, from: Currency, to: Currency) -> Result<Vec<Bank>> {
        let answer = self
            .client
            .read("getBankList", |api| {
                api.get_bank_list()
                    .from_currency(from)
                    .to_currency(to)
                    .send()
            })
            .await?
            .into_inner();
        Ok(answer.data.into_iter().map(Bank::from).collect())
    }

    /// Verifies an account number against a bank and returns the name on the
    /// account, before a payout (`POST /api/resolve-bank`). The request is
    /// checked first with [`crossborder_core::resolve::validate_resolve_bank`].
    pub async fn resolve(&self, request: &ResolveAccountRequest) -> Result<ResolvedAccount> {
        let fields = ResolveBankFields {
            account_number: Some(&request.account_number),
            bank_code: Some(&request.bank_code),
            from_currency: Some(request.from_currency.as_str()),
            to_currency: Some(request.to_currency.as_str()),
        };
        validate_resolve_bank(&fields).map_err(Error::Validation)?;
        let body = wire::ResolveBankRequest {
            account_number: request.account_number.clone(),
            bank_code: request.bank_code.clone(),
            from_currency: request.from_currency,
            to_currency: request.to_currency,
        };
        let answer = self
            .client
            .write("resolveBank", "POST", body, |api, body| {
                api.resolve_bank().body(body).send()
            })
            .await?;
        Ok(answer.data.into())
    }
}
