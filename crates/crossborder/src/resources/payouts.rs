//! `client.payouts()`.

use std::time::SystemTime;

use crossborder_api::types as wire;
use crossborder_core::payout::{names_match, PayoutFields, ValidatedPayout};

use crate::error::{Error, Rule, Violation};
use crate::resources::collections::get_transaction;
use crate::types::{
    rfc3339, PayoutReceipt, PayoutRequest, ResolveAccountRequest, Transaction, TransactionType,
};
use crate::{Client, Result};

/// What `Payouts::create_new` made of a payout: sent now, or found
/// already made under its session id.
///
/// Exhaustive: a send is accepted or its payout found, and every other end
/// is an error.
#[derive(Debug, Clone, PartialEq)]
pub enum Created {
    /// This call's send was accepted. The receipt has no transaction id:
    /// read the payout (`payouts().get`) for it and for its status.
    Sent(PayoutReceipt),
    /// The send was refused with 409 (the session id is taken) or its
    /// outcome is unknown, and reading the session id found the payout.
    Found(Box<Transaction>),
}

/// Payouts. Obtained with [`Client::payouts`].
#[derive(Debug, Clone, Copy)]
pub struct Payouts<'a> {
    pub(crate) client: &'a Client,
}

impl Payouts<'_> {
    /// Sends a payout (`POST /api/payout`).
    ///
    /// The request is validated first with the API's payout rules; when any
    /// rule fails, [`Error::Validation`] lists every violation and nothing is
    /// sent. The payout is retried only when it provably never reached the
    /// server (a connect error), and always with the same body and
    /// `sessionId`; any other failure is returned, and repeating the call
    /// with the same `sessionId` is safe.
    ///
    /// A payout built with [`PayoutRequest::from_quote`] is refused with
    /// [`Error::QuoteExpired`] once its quote has expired, before sending.
    pub async fn create(&self, request: &PayoutRequest) -> Result<PayoutReceipt> {
        let (_, body) = checked(request)?;
        self.send(body).await
    }

    /// Makes the payout once, however often it is called: the payout's
    /// state as read by its session id (`GET /api/transaction/{sessionId}`),
    /// after sending the payout only when no payout exists under that id.
    ///
    /// Give the request a session id derived from your own key (an invoice
    /// or settlement id: [`PayoutRequest::with_session_id`],
    /// [`PayoutRequest::from_quote_with_session_id`]); then running the same
    /// code again, after a crash, a timeout or a redeploy, pays once.
    ///
    /// 1. The payout is read first; when it exists it is returned as it is
    ///    (even if the request differs from it, say a new quote's rate key:
    ///    the session id names the payout), and nothing is sent.
    /// 2. Otherwise the request is checked ([`Error::Validation`]) and sent
    ///    as [`create`](Payouts::create) sends it, then read back. A request
    ///    whose quote has expired is not sent: [`Error::QuoteExpiredUnpaid`]
    ///    says nothing was paid and to send it again from a new quote under
    ///    the same session id (with `crossborder-ledger`, record the payout
    ///    without a `rateKey` instead: it quotes at send time, since a
    ///    recorded session id keeps its request).
    /// 3. When the send's outcome is unknown ([`Outcome::MayHaveBeenApplied`](crate::Outcome),
    ///    a lost connection or a 5xx), or it is refused with 409 (the session
    ///    id is taken), the payout is read again and returned when it exists.
    ///    When the read does not find it, or fails, the send's error is
    ///    returned, whose [`Error::outcome`] says whether the payout may
    ///    have been made: the request is never sent a second time within
    ///    one call, and calling again later (which reads first) is safe.
    ///    After an accepted send, a read-back that fails returns the read's
    ///    error: the payout was made, and calling again reads it.
    ///
    /// ```
    /// # async fn run(client: crossborder::Client, quote: crossborder::types::Quote, seller: crossborder::types::LocalBank) -> crossborder::Result<()> {
    /// use crossborder::types::{PayoutRequest, TransactionStatus};
    ///
    /// let payout = PayoutRequest::from_quote_with_session_id(&quote, "settlement-2291", seller)?;
    /// let paid = client.payouts().create_or_get(&payout).await?;
    /// // Again, with the same settlement id: the same payout, not a second one.
    /// let again = client.payouts().create_or_get(&payout).await?;
    /// assert_eq!(again.transaction_id, paid.transaction_id);
    /// # Ok(()) }
    /// ```
    pub async fn create_or_get(&self, request: &PayoutRequest) -> Result<Transaction> {
        request.validate().map_err(Error::Validation)?;
        match self.get(&request.session_id).await {
            Ok(existing) => return Ok(existing),
            Err(error) if error.is_not_found() => {}
            Err(error) => return Err(error),
        }
        match self.create_new(request).await? {
            Created::Sent(_) => self.get(&request.session_id).await,
            Created::Found(existing) => Ok(*existing),
        }
    }

    /// [`create_or_get`](Payouts::create_or_get) without its first read,
    /// for a payout the caller knows was never sent: steps 2 and 3 of
    /// `create_or_get`, without the read-back after an accepted send.
    ///
    /// Use it only when the caller has durably recorded, before this call,
    /// that the payout is being sent, and so knows no earlier call sent it
    /// (`crossborder-ledger` marks a payout `sending` in its database before
    /// its first send, and reads first whenever it finds one left
    /// `sending`). Otherwise use `create_or_get`, which reads first.
    ///
    /// - Accepted: [`Created::Sent`] with the receipt (no transaction id;
    ///   read the payout for it).
    /// - Refused with 409 (the session id is taken), or the outcome unknown
    ///   ([`Outcome::MayHaveBeenApplied`](crate::Outcome)): the payout is
    ///   read by its session id, and [`Created::Found`] when it exists;
    ///   otherwise the send's error, never a second send.
    /// - An expired quote: [`Error::QuoteExpiredUnpaid`], nothing sent; any
    ///   other refusal: the API's error.
    pub(crate) async fn create_new(&self, request: &PayoutRequest) -> Result<Created> {
        let body = match checked(request) {
            Ok((_, body)) => body,
            Err(Error::QuoteExpired {
                rate_key,
                expired_at,
            }) => {
                return Err(Error::QuoteExpiredUnpaid {
                    session_id: request.session_id.clone(),
                    rate_key,
                    expired_at,
                })
            }
            Err(error) => return Err(error),
        };
        match self.send(body).await {
            Ok(receipt) => Ok(Created::Sent(receipt)),
            Err(error)
                if error.outcome() != crate::Outcome::NotApplied || error.status() == Some(409) =>
            {
                // Whatever kept the read from finding it, the send's error
                // is the one whose outcome says what became of the payout.
                self.get(&request.session_id)
                    .await
                    .map(|found| Created::Found(Box::new(found)))
                    .or(Err(error))
            }
            Err(error) => Err(error),
        }
    }

    /// Sends a payout to a bank account only after checking who holds it:
    /// the account (`accountNumber` at `bankCode`) is resolved with
    /// `POST /api/resolve-bank`, and the name it resolves to must match the
    /// payout's `accountName` (same words, ignoring case, punctuation,
    /// spacing and word order; see
    /// [`names_match`](crate::rules::payout::names_match)). When it does
    /// not, [`Error::RecipientMismatch`] shows both names and nothing is
    /// paid. Otherwise the payout is sent as [`create`](Payouts::create)
    /// sends it.
    ///
    /// Everything that can be judged locally is judged before the first
    /// request: the payout's rules ([`Error::Validation`]), its quote's
    /// expiry ([`Error::QuoteExpired`]), and whether it can be verified at
    /// all. Resolution needs a bank code, so this is for NGN, KES and UGX
    /// bank payouts ([`LocalBank`](crate::types::LocalBank)); any other payout is
    /// refused with [`Error::Validation`].
    pub async fn create_verified(&self, request: &PayoutRequest) -> Result<PayoutReceipt> {
        let (payout, body) = checked(request)?;
        let (Some(account_number), Some(bank_code), Some(expected)) = (
            request.account_number.as_deref(),
            request.bank_code.as_deref(),
            request.account_name.as_deref(),
        ) else {
            return Err(Error::Validation(
                Violation::new(
                    PayoutFields::BANK_CODE,
                    Rule::Required,
                    format!(
                        "is required to verify the recipient (resolve-bank needs accountNumber, \
                         bankCode and accountName; toCurrency is {})",
                        payout.to
                    ),
                )
                .into(),
            ));
        };
        let resolved = self
            .client
            .banks()
            .resolve(&ResolveAccountRequest::new(
                account_number,
                bank_code,
                payout.from,
                payout.to,
            ))
            .await?;
        if !names_match(expected, &resolved.account_name) {
            return Err(Error::RecipientMismatch {
                account_number: account_number.to_owned(),
                expected: expected.to_owned(),
                resolved: resolved.account_name,
            });
        }
        self.send(body).await
    }

    /// Sends a checked payout body; a connect error is retried with the
    /// very same body.
    async fn send(&self, body: wire::PayoutRequest) -> Result<PayoutReceipt> {
        let answer = self
            .client
            .write("createPayout", "POST", body, |api, body| {
                api.create_payout().body(body).send()
            })
            .await?;
        Ok(answer.into())
    }

    /// The state of a payout, by its session id
    /// (`GET /api/transaction/{sessionId}`). Payout completion is not pushed
    /// by webhook: poll this.
    ///
    /// Collections and payouts share that endpoint. When the transaction
    /// found is a collection (its `type` is `COLLECTION`), there is no payout
    /// with this session id, so this answers as a lookup of a missing payout
    /// does: [`Error::Api`] with status 404, the message
    /// `Payout not found: <sessionId> (this reference is a collection)` and
    /// an empty `body` (the server answered 200 with the collection; read it
    /// with [`Collections::get`](crate::Collections::get)). A transaction
    /// without `type`, or with a type this SDK does not know, is returned.
    pub async fn get(&self, session_id: &str) -> Result<Transaction> {
        let transaction = get_transaction(self.client, session_id).await?;
        if transaction.kind == Some(TransactionType::Collection) {
            return Err(Error::Api {
                status: 404,
                message: format!(
                    "Payout not found: {} (this reference is a collection)",
                    self.client.inner.key.redact(session_id)
                ),
                path: None,
                timestamp: None,
                body: String::new(),
            });
        }
        Ok(transaction)
    }
}

/// The payout's rules and its quote's expiry, judged without any request:
/// the validated payout and the body to send.
fn checked(request: &PayoutRequest) -> Result<(ValidatedPayout, wire::PayoutRequest)> {
    let payout = request.validate().map_err(Error::Validation)?;
    if let Some(valid_until) = request.rate_key_valid_until {
        if SystemTime::now() >= valid_until {
            return Err(Error::QuoteExpired {
                rate_key: request.rate_key.clone().unwrap_or_default(),
                expired_at: rfc3339(valid_until),
            });
        }
    }
    Ok((payout, request.to_wire()?))
}
