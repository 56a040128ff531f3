//! `client.quotes()`.

use std::time::SystemTime;

use crossborder_api::decimal::Amount;

use crate::error::Error;
use crate::execute::Operation;
use crate::types::{Quote, QuoteRequest};
use crate::{Client, Result};

/// Exchange quotes. Obtained with [`Client::quotes`].
#[derive(Debug, Clone, Copy)]
pub struct Quotes<'a> {
    pub(crate) client: &'a Client,
}

impl Quotes<'_> {
    /// Gets a live quote for converting `request.amount` of
    /// `request.from_currency` into `request.to_currency`
    /// (`GET /api/qoutes/{from}/{to}/{amount}`).
    ///
    /// The amount is checked first ([`QuoteRequest::validate`]): when it is
    /// not greater than zero or has more decimal places than
    /// `from_currency` allows, [`Error::Validation`] names the field
    /// `amount` and nothing is sent.
    ///
    /// ```no_run
    /// # async fn run(client: crossborder::Client) -> crossborder::Result<()> {
    /// use crossborder::{Currency, Decimal, types::{QuoteRequest, Rail}};
    ///
    /// let quote = client
    ///     .quotes()
    ///     .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(100, 0)).rail(Rail::Swift))
    ///     .await?;
    /// println!("1 USD = {} NGN, key {}", quote.rate, quote.rate_key);
    /// # Ok(()) }
    /// ```
    pub async fn get(&self, request: QuoteRequest) -> Result<Quote> {
        request.validate().map_err(Error::Validation)?;
        let api = self.client.api();
        let response = self
            .client
            .send(Operation::get("getQuote"), || {
                let mut builder = api
                    .get_quote()
                    .from_currency(request.from_currency)
                    .to_currency(request.to_currency)
                    .amount(Amount::new(request.amount));
                if let Some(rail) = request.rail {
                    builder = builder.rail(rail);
                }
                builder.send()
            })
            .await?;
        let received_at = SystemTime::now();
        let server_now = response
            .headers()
            .get(reqwest::header::DATE)
            .and_then(|date| date.to_str().ok())
            .and_then(|date| httpdate::parse_http_date(date).ok());
        Ok(Quote::from_wire(
            response.into_inner().data,
            &request,
            received_at,
            server_now,
        ))
    }
}
