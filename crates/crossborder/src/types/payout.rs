//! Payouts: the typed request and its receipt.

use crossborder_api::types as wire;
use crossborder_core::payout::{required_fields, PayoutFields, PayoutKind, ValidatedPayout};
use rust_decimal::Decimal;

use crate::error::{Rule, Violation, Violations};
use crate::types::{Destination, PayoutSource, Quote};
use crate::Currency;

pub use super::payout_request::PayoutRequest;

/// What the spec does not give: building a payout from a quote or a typed
/// destination, its session id, and the receipt. The struct, its setters,
/// validation and wire body are generated from the spec
/// (`payout_request.rs`, by `cargo xtask codegen`), so a field added to the
/// spec needs no edit here.
impl PayoutRequest {
    /// A payout of `amount` from a source wallet to a typed destination,
    /// under a new session id (a UUID v4; replace it with
    /// [`with_session_id`](PayoutRequest::with_session_id) to use your own).
    /// The source's currency is the payout's `fromCurrency` and the
    /// destination's its `toCurrency`; a crypto source also gives its network
    /// (see [`PayoutSource`]). Keep the request, or its `session_id`: sending the
    /// same request again never pays twice.
    ///
    /// ```
    /// use crossborder::{
    ///     Currency, Decimal,
    ///     types::{CryptoCurrency, CryptoSource, FiatCurrency, LocalBank, LocalBankCurrency, PayoutRequest},
    /// };
    ///
    /// let bank = LocalBank {
    ///     currency: LocalBankCurrency::Ngn,
    ///     account_number: "0123456789".into(),
    ///     account_name: "ADAEZE OKAFOR".into(),
    ///     bank_name: "Guaranty Trust Bank".into(),
    ///     bank_code: "058".into(),
    /// };
    /// let payout = PayoutRequest::pay(Decimal::new(150_000, 2), FiatCurrency::Ngn, bank.clone());
    /// assert_eq!(payout.to_currency, Currency::Ngn);
    /// assert_eq!(payout.session_id.len(), 36);
    /// assert!(payout.validate().is_ok());
    ///
    /// // From USDT on TRON: the network is sent as fromNetwork.
    /// let usdt = CryptoSource { currency: CryptoCurrency::Usdt, network: "tron".into() };
    /// let payout = PayoutRequest::pay(Decimal::new(100, 0), usdt, bank).rate_key("rk_1");
    /// assert_eq!(payout.from_network.as_deref(), Some("tron"));
    /// assert!(payout.validate().is_ok());
    /// ```
    pub fn pay(
        amount: Decimal,
        from: impl Into<PayoutSource>,
        to: impl Into<Destination>,
    ) -> PayoutRequest {
        let source = from.into();
        let from_network = source.network().map(str::to_owned);
        PayoutRequest::funded(amount, source.currency(), from_network, to.into())
    }

    /// A payout of `amount` of `from` (on `from_network` when crypto) to
    /// `destination`, under a new session id.
    fn funded(
        amount: Decimal,
        from: Currency,
        from_network: Option<String>,
        destination: Destination,
    ) -> PayoutRequest {
        let session_id = uuid::Uuid::new_v4().to_string();
        let mut request = PayoutRequest::new(session_id, amount, from, destination.currency())
            .destination(destination);
        // A same-currency crypto payout names one network, the wallet's; the
        // source's is added only when it is another one.
        request.from_network = from_network.filter(|network| {
            from != request.to_currency || request.network.as_ref() != Some(network)
        });
        request
    }

    /// A converting payout of the quote's amount, at the quote's rate (its
    /// `rateKey`), from the quote's `fromCurrency` to a typed destination,
    /// under a new session id. `payouts().create` refuses the payout once
    /// the quote has expired ([`Error::QuoteExpired`](crate::Error::QuoteExpired)), before sending
    /// anything.
    ///
    /// The wallet is debited the amount **plus the quote's fee**
    /// ([`Quote::total_amount`](crate::types::Quote::total_amount), in
    /// `fromCurrency`); the recipient receives
    /// [`Quote::to_amount`](crate::types::Quote::to_amount).
    ///
    /// The session id is new on every call, so **every call is a new
    /// payout**: code that may run twice for one payment (a retry, a
    /// restart) must use
    /// [`from_quote_with_session_id`](PayoutRequest::from_quote_with_session_id)
    /// with an id derived from its own key and send with
    /// [`Payouts::create_or_get`](crate::Payouts::create_or_get).
    ///
    /// Refused here, with every reason at once: a destination in another
    /// currency than the quote's `toCurrency` (`toCurrency`, `Mismatch`),
    /// and a quote from a cryptocurrency, whose source network only the
    /// caller knows: build that payout with
    /// [`from_crypto_quote`](PayoutRequest::from_crypto_quote)
    /// (`fromNetwork`, `Required`).
    ///
    /// ```
    /// # async fn run(client: crossborder::Client) -> crossborder::Result<()> {
    /// use crossborder::{Currency, Decimal, types::{LocalBank, LocalBankCurrency, PayoutRequest, QuoteRequest}};
    ///
    /// let quote = client
    ///     .quotes()
    ///     .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(100, 0)))
    ///     .await?;
    /// let payout = PayoutRequest::from_quote(
    ///     &quote,
    ///     LocalBank {
    ///         currency: LocalBankCurrency::Ngn,
    ///         account_number: "0123456789".into(),
    ///         account_name: "ADAEZE OKAFOR".into(),
    ///         bank_name: "Guaranty Trust Bank".into(),
    ///         bank_code: "058".into(),
    ///     },
    /// )?;
    /// let receipt = client.payouts().create(&payout).await?;
    /// # Ok(()) }
    /// ```
    pub fn from_quote(
        quote: &Quote,
        to: impl Into<Destination>,
    ) -> Result<PayoutRequest, Violations> {
        let destination = to.into();
        let mut violations = destination_mismatch(quote, &destination);
        // Core's rule decides when the source network is needed; this only
        // says how to give it.
        let needs_network = required_fields(quote.from_currency, destination.currency())
            .contains(&PayoutFields::FROM_NETWORK);
        if needs_network {
            violations.push(Violation::new(
                PayoutFields::FROM_NETWORK,
                Rule::Required,
                format!(
                    "is required when fromCurrency ({}) is crypto and differs from toCurrency \
                     ({}): build the payout with PayoutRequest::from_crypto_quote, which takes \
                     the network the {} is on",
                    quote.from_currency,
                    destination.currency(),
                    quote.from_currency
                ),
            ));
        }
        PayoutRequest::quoted(quote, None, destination, violations)
    }

    /// [`from_quote`](PayoutRequest::from_quote) under the caller's own
    /// `session_id`: the way to make a payout repeatable. Derive it from
    /// your own key (`settlement-2291` for settlement 2291; 1 to 100 of
    /// `A-Z a-z 0-9 _ -`), so that the same payment always carries the same
    /// id, and send it with
    /// [`Payouts::create_or_get`](crate::Payouts::create_or_get): the
    /// service makes at most one payout per session id. After the quote
    /// has expired, build the payout again from a new quote under the same
    /// session id.
    ///
    /// ```
    /// # fn build(quote: &crossborder::types::Quote, seller: crossborder::types::LocalBank) -> Result<(), crossborder::error::Violations> {
    /// use crossborder::types::PayoutRequest;
    ///
    /// let payout = PayoutRequest::from_quote_with_session_id(quote, "settlement-2291", seller)?;
    /// assert_eq!(payout.session_id, "settlement-2291");
    /// # Ok(()) }
    /// ```
    pub fn from_quote_with_session_id(
        quote: &Quote,
        session_id: impl Into<String>,
        to: impl Into<Destination>,
    ) -> Result<PayoutRequest, Violations> {
        Ok(PayoutRequest::from_quote(quote, to)?.with_session_id(session_id))
    }

    /// A converting payout from a quote whose `fromCurrency` is a
    /// cryptocurrency held on `from_network` (sent as `fromNetwork`), as
    /// [`from_quote`](PayoutRequest::from_quote) builds the others.
    ///
    /// Refused here, with every reason at once: a destination in another
    /// currency than the quote's `toCurrency` (`toCurrency`, `Mismatch`),
    /// and a quote from a fiat currency, which has no network (`fromNetwork`,
    /// `Mismatch`).
    ///
    /// ```
    /// # async fn run(client: crossborder::Client) -> crossborder::Result<()> {
    /// use crossborder::{
    ///     Currency, Decimal, types::{LocalBank, LocalBankCurrency, PayoutRequest, QuoteRequest},
    /// };
    ///
    /// let quote = client
    ///     .quotes()
    ///     .get(QuoteRequest::new(Currency::Usdt, Currency::Ngn, Decimal::new(250, 0)))
    ///     .await?;
    /// let payout = PayoutRequest::from_crypto_quote(
    ///     &quote,
    ///     "tron",
    ///     LocalBank {
    ///         currency: LocalBankCurrency::Ngn,
    ///         account_number: "0123456789".into(),
    ///         account_name: "ADAEZE OKAFOR".into(),
    ///         bank_name: "Guaranty Trust Bank".into(),
    ///         bank_code: "058".into(),
    ///     },
    /// )?;
    /// assert_eq!(payout.from_network.as_deref(), Some("tron"));
    /// let receipt = client.payouts().create(&payout).await?;
    /// # Ok(()) }
    /// ```
    pub fn from_crypto_quote(
        quote: &Quote,
        from_network: impl Into<String>,
        to: impl Into<Destination>,
    ) -> Result<PayoutRequest, Violations> {
        let destination = to.into();
        let mut violations = destination_mismatch(quote, &destination);
        if !quote.from_currency.is_crypto() {
            violations.push(Violation::new(
                PayoutFields::FROM_NETWORK,
                Rule::Mismatch,
                format!(
                    "names the network of a crypto source, but the quote's fromCurrency ({}) is \
                     fiat: build the payout with PayoutRequest::from_quote",
                    quote.from_currency
                ),
            ));
        }
        PayoutRequest::quoted(quote, Some(from_network.into()), destination, violations)
    }

    /// The payout of `quote` to `destination`, unless `violations` say why
    /// it cannot be built.
    fn quoted(
        quote: &Quote,
        from_network: Option<String>,
        destination: Destination,
        violations: Vec<Violation>,
    ) -> Result<PayoutRequest, Violations> {
        if let Some(violations) = Violations::from_vec(violations) {
            return Err(violations);
        }
        let mut request =
            PayoutRequest::funded(quote.amount, quote.from_currency, from_network, destination)
                .rate_key(quote.rate_key.clone());
        request.rate_key_valid_until = Some(quote.valid_until);
        Ok(request)
    }

    /// Replaces the session id with your own, derived from your key (an
    /// invoice or settlement id): the documented way to make a payout
    /// repeatable, since the service makes at most one payout per session
    /// id (send it with
    /// [`Payouts::create_or_get`](crate::Payouts::create_or_get)).
    pub fn with_session_id(mut self, session_id: impl Into<String>) -> PayoutRequest {
        self.session_id = session_id.into();
        self
    }

    /// Sets the destination fields of `destination` (and its currency as
    /// `toCurrency`), replacing those of any earlier destination: every
    /// destination field the new one does not use is cleared, so nothing of
    /// an earlier destination (a sort code on a payout now to Nigeria) is
    /// sent. A wallet's network is sent as `network` when the payout is from
    /// the same cryptocurrency, as `toNetwork` otherwise. The source's
    /// fields (`fromNetwork`), the rate key, the narration and
    /// `recipientName` are kept.
    pub fn destination(self, destination: impl Into<Destination>) -> PayoutRequest {
        let destination = destination.into();
        // Everything but the source's and the payout's own fields starts
        // empty, so a destination field added to the spec is cleared too.
        let mut this = PayoutRequest {
            narration: self.narration,
            rate_key: self.rate_key,
            from_network: self.from_network,
            recipient_name: self.recipient_name,
            rate_key_valid_until: self.rate_key_valid_until,
            ..PayoutRequest::new(
                self.session_id,
                self.amount,
                self.from_currency,
                destination.currency(),
            )
        };
        match destination {
            Destination::LocalBank(bank) => {
                this.account_number = Some(bank.account_number);
                this.account_name = Some(bank.account_name);
                this.bank_name = Some(bank.bank_name);
                this.bank_code = Some(bank.bank_code);
            }
            Destination::UsBank(bank) => {
                this.account_number = Some(bank.account_number);
                this.account_name = Some(bank.account_name);
                this.bank_name = Some(bank.bank_name);
            }
            Destination::UkBank(bank) => {
                this.account_number = Some(bank.account_number);
                this.account_name = Some(bank.account_name);
                this.bank_name = Some(bank.bank_name);
                this.sort_code = Some(bank.sort_code);
                this.swift_code = Some(bank.swift_code);
            }
            Destination::EurBank(bank) => {
                this.account_number = Some(bank.iban);
                this.account_name = Some(bank.account_name);
                this.swift_code = Some(bank.swift_code);
                this.bank_name = bank.bank_name;
            }
            Destination::CanadianBank(bank) => {
                this.account_number = Some(bank.account_number);
                this.account_name = Some(bank.account_name);
                this.transit_number = Some(bank.transit_number);
                this.institution_number = Some(bank.institution_number);
                this.bank_name = bank.bank_name;
            }
            Destination::CryptoWallet(wallet) => {
                this.address = Some(wallet.address);
                if this.from_currency == this.to_currency {
                    this.network = Some(wallet.network);
                } else {
                    this.to_network = Some(wallet.network);
                }
            }
            Destination::OtherFiat(account) => {
                this.account_number = account.account_number;
                this.account_name = account.account_name;
                this.bank_name = account.bank_name;
                this.bank_code = account.bank_code;
            }
        }
        this
    }

    /// Whether this payout converts between currencies and carries no
    /// `rateKey` yet: it needs a quote before it can be sent. A durable
    /// sender (`crossborder-ledger`) records such a payout and quotes it
    /// just before sending.
    ///
    /// ```
    /// use crossborder::{Currency, Decimal, types::PayoutRequest};
    ///
    /// let unquoted = PayoutRequest::new("p-1", Decimal::new(100, 0), Currency::Usd, Currency::Ngn);
    /// assert!(unquoted.needs_quote());
    /// assert!(!unquoted.clone().rate_key("rk_1").needs_quote());
    /// assert!(!PayoutRequest::new("p-2", Decimal::ONE, Currency::Ngn, Currency::Ngn).needs_quote());
    /// ```
    pub fn needs_quote(&self) -> bool {
        self.from_currency != self.to_currency && self.rate_key.is_none()
    }

    /// Checks everything but the quote: every rule of
    /// [`validate`](PayoutRequest::validate) except that a converting
    /// payout must carry a `rateKey` (one it carries is still checked). For
    /// a payout whose quote is taken later, just before it is sent, so its
    /// destination and fields are checked before any quote exists. Every
    /// violation at once, as `validate` reports them.
    ///
    /// ```
    /// use crossborder::{Currency, Decimal, types::PayoutRequest};
    ///
    /// let payout = PayoutRequest::new("p-1", Decimal::new(100, 0), Currency::Usd, Currency::Ngn)
    ///     .account_number("0123456789")
    ///     .account_name("ADAEZE OKAFOR")
    ///     .bank_name("Guaranty Trust Bank")
    ///     .bank_code("058");
    /// assert!(payout.validate_unquoted().is_ok());
    /// assert_eq!(
    ///     payout.validate().unwrap_err().to_string(),
    ///     "rateKey: is required when fromCurrency (USD) differs from toCurrency (NGN)"
    /// );
    /// let short = payout.bank_code("5");
    /// assert_eq!(
    ///     short.validate_unquoted().unwrap_err().to_string(),
    ///     "bankCode: must be 2 to 6 digits, a bank code from the NGN bank list such as 058"
    /// );
    /// ```
    pub fn validate_unquoted(&self) -> Result<ValidatedPayout, Violations> {
        let violations = match self.validate() {
            Ok(valid) => return Ok(valid),
            Err(violations) => violations,
        };
        let rest: Vec<Violation> = violations
            .into_vec()
            .into_iter()
            .filter(|v| !(v.field == PayoutFields::RATE_KEY && v.rule == Rule::Required))
            .collect();
        match Violations::from_vec(rest) {
            Some(violations) => Err(violations),
            None => Ok(ValidatedPayout {
                amount: self.amount,
                from: self.from_currency,
                to: self.to_currency,
                kind: PayoutKind::of(self.from_currency, self.to_currency),
            }),
        }
    }
}

/// Why `destination` cannot receive a payout of `quote`: it is in another
/// currency than the quote's `toCurrency`.
fn destination_mismatch(quote: &Quote, destination: &Destination) -> Vec<Violation> {
    if destination.currency() == quote.to_currency {
        return Vec::new();
    }
    vec![Violation::new(
        PayoutFields::TO_CURRENCY,
        Rule::Mismatch,
        format!(
            "must be the quote's toCurrency ({}); the destination is in {}",
            quote.to_currency,
            destination.currency()
        ),
    )]
}

/// The acknowledgement of an accepted payout. Completion is not pushed by
/// webhook: track it with `payouts().get(&receipt.session_id)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoutReceipt {
    /// The payout's session id, as echoed by the server.
    pub session_id: String,
    /// The server's summary.
    pub message: String,
}

impl From<wire::PayoutResponse> for PayoutReceipt {
    fn from(value: wire::PayoutResponse) -> Self {
        PayoutReceipt {
            session_id: value.session_id,
            message: value.message,
        }
    }
}
