//! `client.wallet()`.

use crate::types::Balance;
use crate::{Client, Currency, Result};

/// Wallet balances. Obtained with [`Client::wallet`].
#[derive(Debug, Clone, Copy)]
pub struct Wallet<'a> {
    pub(crate) client: &'a Client,
}

impl Wallet<'_> {
    /// The balance of the wallet in `currency` (`GET /api/balance/{currency}`).
    pub async fn balance(&self, currency: Currency) -> Result<Balance> {
        let answer = self
            .client
            .read("getBalance", |api| {
                api.get_balance().currency(currency).send()
            })
            .await?
            .into_inner();
        Ok(Balance {
            currency,
            amount: answer.data.balance.get(),
        })
    }
}
