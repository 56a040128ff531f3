//! Load with reconciliation (#13, item 3).
//!
//! 10,000 operations from 64 concurrent tasks, straight to the in-process
//! sandbox, under two API keys (two businesses): quotes, collections (same
//! currency, and converting at a quote's rate), simulated fundings (in
//! the wallet a collection credits), payouts (same currency, and
//! converting from a quote, fee included), repeats of earlier payouts,
//! balance, transaction and bank-list reads, and business onboarding
//! calls. The mix is drawn from one seed (printed;
//! `CROSSBORDER_LOAD_SEED` replays it).
//!
//! The sandbox runs under its fault modes for reads: 1 % of reads each are
//! answered 502, 503, or 429 with `Retry-After: 1` (#38), which the SDK's
//! retry policy absorbs (reads are safe to repeat). Writes meet no fault
//! here: `exactly_once.rs` is where a write's answer is lost.
//!
//! No operation fails except those made to fail: payouts larger than any
//! balance, counted apart, each refused with 400 `Insufficient balance`.
//! Afterwards every wallet of both businesses (every currency) reconciles
//! exactly: the opening balance, plus what the fundings credited, minus
//! what the payouts debited (amount plus fee), is the balance read.
//!
//! The run ends by searching everything logged at `TRACE` and every error
//! met for both API keys (#13, item 5).

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use crossborder::{
    types::{
        CollectionRequest, CreateBusinessRequest, FiatCurrency, LocalBank, LocalBankCurrency,
        PayoutRequest, PersonRequest, QuoteRequest, SimulateFundingRequest,
    },
    Client, Currency, Decimal, Error, Outcome, RetryPolicy,
};
use crossborder_resilience_tests::capture::capture;
use crossborder_resilience_tests::sandbox::{client, Env, CHECK_TIMEOUT, KEY, SECOND_KEY};
use crossborder_resilience_tests::seed::seed;
use crossborder_sandbox::faults::{FaultConfig, FaultKind};
use crossborder_testkit::fixtures::ngn_bank;
use crossborder_testkit::injected_faults;
use rust_decimal::RoundingStrategy;

const TASKS: usize = 64;
const OPERATIONS: usize = 10_000;
/// The read faults of the run, each at 1 % of reads.
const READ_FAULTS: [FaultKind; 3] = [FaultKind::Read502, FaultKind::Read503, FaultKind::Read429];

/// The sandbox's read faults for `seed`.
fn read_faults(seed: u64) -> FaultConfig {
    READ_FAULTS
        .into_iter()
        .fold(FaultConfig::off().with_seed(seed), |config, kind| {
            config
                .with_rate(kind, Decimal::new(1, 2))
                .expect("a valid rate")
        })
}

/// Retries of reads enough that five faults in a row (one chance in
/// about 40 million at 3 %) are needed to fail one; a `Retry-After: 1`
/// is waited for.
fn retrying() -> RetryPolicy {
    RetryPolicy::default()
        .max_attempts(5)
        .base_delay(Duration::from_millis(10))
        .max_delay(Duration::from_secs(2))
}

/// Far longer than a run takes (10 to 20 s), to fail rather than hang.
const HANG_GUARD: Duration = Duration::from_secs(300);

/// Every currency of the API: every wallet a business has.
const CURRENCIES: [Currency; 13] = [
    Currency::Ngn,
    Currency::Cngn,
    Currency::Usd,
    Currency::Usdt,
    Currency::Usdc,
    Currency::Eur,
    Currency::Gbp,
    Currency::Kes,
    Currency::Ugx,
    Currency::Ghs,
    Currency::Cad,
    Currency::Xof,
    Currency::Xaf,
];

/// A payout no balance of the run can cover: the deliberate refusal.
/// (The fundings of a run credit some billions of NGN at most.)
const TOO_MUCH_NGN: i64 = 100_000_000_000_000;

/// `value` rounded to the minor unit of `currency`, half away from zero,
/// as the sandbox rounds every converted amount and fee.
fn round(value: Decimal, currency: Currency) -> Decimal {
    value.round_dp_with_strategy(
        currency.minor_unit_exponent(),
        RoundingStrategy::MidpointAwayFromZero,
    )
}

/// Money moved, by currency.
#[derive(Debug, Default, Clone)]
struct Ledger {
    credited: BTreeMap<Currency, Decimal>,
    debited: BTreeMap<Currency, Decimal>,
}

impl Ledger {
    fn credit(&mut self, currency: Currency, amount: Decimal) {
        *self.credited.entry(currency).or_default() += amount;
    }

    fn debit(&mut self, currency: Currency, amount: Decimal) {
        *self.debited.entry(currency).or_default() += amount;
    }

    fn add(&mut self, other: &Ledger) {
        for (currency, amount) in &other.credited {
            self.credit(*currency, *amount);
        }
        for (currency, amount) in &other.debited {
            self.debit(*currency, *amount);
        }
    }

    /// What the wallet should hold after `opening`.
    fn expected(&self, currency: Currency, opening: Decimal) -> Decimal {
        opening + self.credited.get(&currency).copied().unwrap_or_default()
            - self.debited.get(&currency).copied().unwrap_or_default()
    }
}

/// A collection a task created.
struct Collection {
    reference: String,
    memo: String,
    from: Currency,
    to: Currency,
}

/// What one task did.
#[derive(Default)]
struct Report {
    key: &'static str,
    operations: usize,
    by_operation: BTreeMap<&'static str, usize>,
    ledger: Ledger,
    expected_refusals: usize,
    unexpected: Vec<String>,
}

/// One of the 64 tasks: its share of the operations, drawn from its seed.
struct Task {
    id: usize,
    rng: fastrand::Rng,
    budget: usize,
    report: Report,
    collections: Vec<Collection>,
    payouts: Vec<PayoutRequest>,
    businesses: Vec<String>,
    serial: usize,
}

impl Task {
    fn remaining(&self) -> usize {
        self.budget - self.report.operations
    }

    fn next_id(&mut self, kind: &str) -> String {
        self.serial += 1;
        format!("load-{kind}-{}-{}", self.id, self.serial)
    }

    /// Notes a problem the workload did not cause.
    fn unexpected(&mut self, problem: String) {
        self.report.unexpected.push(problem);
    }

    /// Notes an error of `what` the workload did not cause, captured for
    /// the leak check like every error.
    fn unexpected_error(&mut self, what: &str, error: &Error) {
        capture().record_error(error);
        self.unexpected(format!("{what}: {error}"));
    }

    /// Runs one SDK call, counting it; an error here is one the workload
    /// did not cause.
    async fn call<T>(
        &mut self,
        name: &'static str,
        call: impl Future<Output = crossborder::Result<T>>,
    ) -> Option<T> {
        self.report.operations += 1;
        *self.report.by_operation.entry(name).or_default() += 1;
        match call.await {
            Ok(value) => Some(value),
            Err(error) => {
                self.unexpected_error(name, &error);
                None
            }
        }
    }

    async fn run(mut self, client: Client) -> Report {
        while self.remaining() > 0 {
            let two_calls = self.remaining() >= 2;
            match self.rng.u32(0..100) {
                0..=13 => self.quote(&client).await,
                14..=27 => self.balance(&client).await,
                28..=35 => self.read_transaction(&client).await,
                36..=39 => self.banks(&client).await,
                40..=51 => self.collection(&client, two_calls).await,
                52..=67 => self.funding(&client, two_calls).await,
                68..=83 => self.payout(&client, two_calls).await,
                84..=86 => self.repeat_payout(&client).await,
                87..=88 => self.overdraw(&client, two_calls).await,
                _ => self.business(&client).await,
            }
        }
        self.report
    }

    /// A quote of up to 500 USD in NGN, or the other way.
    async fn quote(&mut self, client: &Client) {
        let (from, to) = if self.rng.bool() {
            (Currency::Usd, Currency::Ngn)
        } else {
            (Currency::Ngn, Currency::Usd)
        };
        let amount = Decimal::new(self.rng.i64(100..=50_000), 2);
        self.quote_for(client, from, to, amount).await;
    }

    /// A quote, whose figures follow the fee rule: 0.5 % of the amount,
    /// rounded to the source currency's minor unit.
    async fn quote_for(
        &mut self,
        client: &Client,
        from: Currency,
        to: Currency,
        amount: Decimal,
    ) -> Option<crossborder::types::Quote> {
        let quote = self
            .call(
                "quote",
                client.quotes().get(QuoteRequest::new(from, to, amount)),
            )
            .await?;
        let fee = round(amount * Decimal::new(5, 3), from);
        if quote.fee != Some(fee) || quote.total_amount != Some(amount + fee) {
            self.unexpected(format!(
                "quote of {amount} {from}: fee {:?}, total {:?}; expected {fee}, {}",
                quote.fee,
                quote.total_amount,
                amount + fee
            ));
        }
        Some(quote)
    }

    async fn balance(&mut self, client: &Client) {
        let currency = [Currency::Ngn, Currency::Usd, Currency::Usdt][self.rng.usize(0..3)];
        self.call("balance", client.wallet().balance(currency))
            .await;
    }

    async fn read_transaction(&mut self, client: &Client) {
        if self.rng.bool() && !self.payouts.is_empty() {
            let payout = self.payouts[self.rng.usize(0..self.payouts.len())].clone();
            let read = self
                .call("payout read", client.payouts().get(&payout.session_id))
                .await;
            if let Some(held) = read {
                if held.amount != payout.amount {
                    self.unexpected(format!(
                        "payout {} holds {}, not {}",
                        payout.session_id, held.amount, payout.amount
                    ));
                }
            }
        } else if !self.collections.is_empty() {
            let reference = self.collections[self.rng.usize(0..self.collections.len())]
                .reference
                .clone();
            self.call("collection read", client.collections().get(&reference))
                .await;
        } else {
            self.balance(client).await;
        }
    }

    async fn banks(&mut self, client: &Client) {
        self.call(
            "bank list",
            client.banks().list(Currency::Ngn, Currency::Ngn),
        )
        .await;
    }

    /// A collection: in NGN or USD, or from USD to NGN at a fresh quote's
    /// rate (two calls).
    async fn collection(&mut self, client: &Client, two_calls: bool) {
        let reference = self.next_id("collection");
        let amount = Decimal::new(self.rng.i64(1_000..=5_000_000), 2);
        let converting = two_calls && self.rng.u32(0..3) == 0;
        let request = if converting {
            let Some(quote) = self
                .quote_for(client, Currency::Usd, Currency::Ngn, Decimal::ONE)
                .await
            else {
                return;
            };
            CollectionRequest::new(&reference, amount, Currency::Usd, Currency::Ngn)
                .rate_key(quote.rate_key.clone())
        } else {
            let currency = if self.rng.bool() {
                Currency::Ngn
            } else {
                Currency::Usd
            };
            CollectionRequest::new(&reference, amount, currency, currency)
        };
        let Some(created) = self
            .call("collection", client.collections().create(&request))
            .await
        else {
            return;
        };
        let Some(memo) = created.pay_reference else {
            self.unexpected(format!("collection {reference} has no payRefrence"));
            return;
        };
        self.collections.push(Collection {
            reference,
            memo,
            from: request.from_currency,
            to: request.to_currency,
        });
    }

    /// A simulated funding of one of the task's collections, in the wallet
    /// it credits, its `toCurrency` (ASSUMPTIONS A14): that wallet grows by
    /// the amount itself.
    async fn funding(&mut self, client: &Client, two_calls: bool) {
        if self.collections.is_empty() {
            return self.collection(client, two_calls).await;
        }
        let collection = &self.collections[self.rng.usize(0..self.collections.len())];
        let (currency, memo) = (collection.to, collection.memo.clone());
        // A converting collection refuses a funding that pays less than
        // its fromCurrency's minor unit (A14), which a few NGN would be:
        // its fundings start at 100.
        let least = if collection.from == collection.to {
            100
        } else {
            10_000
        };
        let amount = Decimal::new(self.rng.i64(least..=2_000_000), 2);
        let session_id = self.next_id("funding");
        let request = SimulateFundingRequest::new(currency, amount, memo, session_id);
        if self
            .call("funding", client.sandbox().simulate_funding(&request))
            .await
            .is_some()
        {
            self.report.ledger.credit(currency, amount);
        }
    }

    /// A payout: NGN to an NGN account, or USD to an NGN account from a
    /// fresh quote (two calls), debited with the quote's total (amount plus
    /// fee).
    async fn payout(&mut self, client: &Client, two_calls: bool) {
        let destination = LocalBank {
            currency: LocalBankCurrency::Ngn,
            account_number: "0123456789".into(),
            account_name: "ADAEZE OKAFOR".into(),
            bank_name: "Guaranty Trust Bank".into(),
            bank_code: "058".into(),
        };
        let session_id = self.next_id("payout");
        let (request, debit) = if two_calls && self.rng.u32(0..3) == 0 {
            // 1 to 20 USD: the USD payouts of the run stay below the
            // opening balance even before any funding.
            let amount = Decimal::new(self.rng.i64(100..=2_000), 2);
            let Some(quote) = self
                .quote_for(client, Currency::Usd, Currency::Ngn, amount)
                .await
            else {
                return;
            };
            let Ok(request) = PayoutRequest::from_quote(&quote, destination) else {
                self.unexpected(format!("no payout from quote {}", quote.rate_key));
                return;
            };
            let debit = quote.total_amount.unwrap_or(quote.amount);
            (request.with_session_id(&session_id), (Currency::Usd, debit))
        } else {
            let amount = Decimal::new(self.rng.i64(100..=200_000), 2);
            let request = PayoutRequest::pay(amount, FiatCurrency::Ngn, destination)
                .with_session_id(&session_id);
            (request, (Currency::Ngn, amount))
        };
        if self
            .call("payout", client.payouts().create(&request))
            .await
            .is_some()
        {
            self.report.ledger.debit(debit.0, debit.1);
            self.payouts.push(request);
        }
    }

    /// An earlier payout sent again with its sessionId: answered as the
    /// first time, and not paid again (nothing goes to the ledger).
    async fn repeat_payout(&mut self, client: &Client) {
        if self.payouts.is_empty() {
            return self.balance(client).await;
        }
        let payout = self.payouts[self.rng.usize(0..self.payouts.len())].clone();
        self.call("payout repeated", client.payouts().create(&payout))
            .await;
    }

    /// A payout larger than any balance: refused with 400 `Insufficient
    /// balance`, not applied, counted apart. When there is room for a second
    /// call, its sessionId is read back: unknown (404), since a refused
    /// payout leaves nothing behind.
    async fn overdraw(&mut self, client: &Client, two_calls: bool) {
        self.report.operations += 1;
        *self
            .report
            .by_operation
            .entry("payout overdrawn")
            .or_default() += 1;
        let session_id = self.next_id("overdraw");
        let request = PayoutRequest::new(
            &session_id,
            Decimal::new(TOO_MUCH_NGN, 0),
            Currency::Ngn,
            Currency::Ngn,
        )
        .destination(ngn_bank());
        match client.payouts().create(&request).await {
            Err(error @ Error::Api { status: 400, .. })
                if error.outcome() == Outcome::NotApplied
                    && matches!(&error, Error::Api { message, .. }
                        if message.starts_with("Insufficient balance: available ")
                            && message.ends_with(", required 100000000000000.00 NGN")) =>
            {
                capture().record_error(&error);
                self.report.expected_refusals += 1;
            }
            Err(error) => self.unexpected_error("overdrawn payout", &error),
            Ok(receipt) => {
                self.unexpected(format!("overdrawn payout accepted: {}", receipt.session_id))
            }
        }
        if !two_calls {
            return;
        }
        self.report.operations += 1;
        *self
            .report
            .by_operation
            .entry("overdrawn payout read (404)")
            .or_default() += 1;
        match client.payouts().get(&session_id).await {
            Err(error @ Error::Api { status: 404, .. }) => capture().record_error(&error),
            Err(error) => self.unexpected_error("overdrawn payout read", &error),
            Ok(held) => self.unexpected(format!("overdrawn payout {session_id} is held: {held:?}")),
        }
    }

    /// A business call: create one, or read, or add a director or a UBO to
    /// one created before.
    async fn business(&mut self, client: &Client) {
        let Some(id) = (!self.businesses.is_empty())
            .then(|| self.businesses[self.rng.usize(0..self.businesses.len())].clone())
        else {
            return self.create_business(client).await;
        };
        match self.rng.u32(0..4) {
            0 => self.create_business(client).await,
            1 => {
                self.call("business read", client.businesses().get(&id))
                    .await;
            }
            2 => {
                self.call("director", client.businesses().add_director(&id, &person()))
                    .await;
            }
            _ => {
                self.call("ubo", client.businesses().add_ubo(&id, &person()))
                    .await;
            }
        }
    }

    async fn create_business(&mut self, client: &Client) {
        let registration = format!("RC{:02}{:05}", self.id, self.serial);
        self.serial += 1;
        if let Some(created) = self
            .call(
                "business",
                client.businesses().create(&business(&registration)),
            )
            .await
        {
            self.businesses.push(created.id);
        }
    }
}

const LINK: &str = "https://files.example/kyb/document.pdf";

/// The contract tests' complete LLC business, under `registration_number`.
fn business(registration_number: &str) -> CreateBusinessRequest {
    crossborder_testkit::fixtures::business_request(registration_number, LINK)
}

/// The contract tests' director or UBO.
fn person() -> PersonRequest {
    crossborder_testkit::fixtures::person_request(LINK)
}

async fn balances(client: &Client) -> BTreeMap<Currency, Decimal> {
    let mut balances = BTreeMap::new();
    for currency in CURRENCIES {
        let balance = client.wallet().balance(currency).await.unwrap();
        balances.insert(currency, balance.amount);
    }
    balances
}

#[tokio::test(flavor = "multi_thread")]
async fn ten_thousand_concurrent_operations_reconcile_every_wallet() {
    let capture = capture();
    let seed = seed("CROSSBORDER_LOAD_SEED");
    let keys = [KEY, SECOND_KEY];
    let env = Env::start(&keys).await;
    let mut opening = BTreeMap::new();
    for key in keys {
        opening.insert(key, balances(&env.checking_client(key)).await);
        // The faults start once the opening balances are read.
        env.sandbox.set_faults(key, read_faults(seed)).unwrap();
    }

    let started = tokio::time::Instant::now();
    let clients: Vec<Client> = keys
        .iter()
        .map(|key| client(env.base_url(), key, CHECK_TIMEOUT, retrying()))
        .collect();
    let mut tasks = Vec::with_capacity(TASKS);
    for id in 0..TASKS {
        let key = keys[id % keys.len()];
        let task = Task {
            id,
            rng: fastrand::Rng::with_seed(seed.wrapping_add(id as u64)),
            budget: OPERATIONS / TASKS + usize::from(id < OPERATIONS % TASKS),
            report: Report {
                key,
                ..Report::default()
            },
            collections: Vec::new(),
            payouts: Vec::new(),
            businesses: Vec::new(),
            serial: 0,
        };
        tasks.push(tokio::spawn(task.run(clients[id % keys.len()].clone())));
    }
    let mut ledgers: BTreeMap<&str, Ledger> = BTreeMap::new();
    let mut by_operation: BTreeMap<&str, usize> = BTreeMap::new();
    let mut operations = 0;
    let mut expected_refusals = 0;
    let mut unexpected = Vec::new();
    for task in tasks {
        let report = tokio::time::timeout_at(started + HANG_GUARD, task)
            .await
            .unwrap_or_else(|_| panic!("the run is stuck after {HANG_GUARD:?}"))
            .unwrap();
        ledgers.entry(report.key).or_default().add(&report.ledger);
        for (name, count) in report.by_operation {
            *by_operation.entry(name).or_default() += count;
        }
        operations += report.operations;
        expected_refusals += report.expected_refusals;
        unexpected.extend(report.unexpected);
    }
    let elapsed = started.elapsed();
    // The faults injected, as the control API lists them; then none, for
    // the checking reads.
    let mut injected: BTreeMap<FaultKind, usize> = BTreeMap::new();
    for key in keys {
        for fault in injected_faults(&env.sandbox, key) {
            *injected.entry(fault.kind).or_default() += 1;
        }
        env.sandbox.set_faults(key, FaultConfig::off()).unwrap();
    }
    println!("read faults injected (and absorbed by the SDK's retries): {injected:?}");
    assert_eq!(
        injected.keys().copied().collect::<Vec<_>>(),
        READ_FAULTS,
        "every read fault met, and no other"
    );

    println!(
        "{operations} operations from {TASKS} tasks in {:.1} s: {by_operation:?}",
        elapsed.as_secs_f64()
    );
    println!("expected refusals (payouts above any balance): {expected_refusals}");
    assert_eq!(operations, OPERATIONS);
    assert!(
        unexpected.is_empty(),
        "{} operations failed that the workload did not make fail:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert_eq!(
        expected_refusals,
        by_operation.get("payout overdrawn").copied().unwrap_or(0)
    );

    // Every wallet of both businesses reconciles exactly.
    for key in keys {
        let ledger = ledgers.get(key).cloned().unwrap_or_default();
        let closing = balances(&env.checking_client(key)).await;
        for currency in CURRENCIES {
            let expected = ledger.expected(currency, opening[key][&currency]);
            assert_eq!(
                closing[&currency],
                expected,
                "{currency} wallet of business {}: opening {}, credited {:?}, debited {:?}",
                keys.iter().position(|k| *k == key).unwrap_or(0) + 1,
                opening[key][&currency],
                ledger.credited.get(&currency),
                ledger.debited.get(&currency)
            );
        }
        println!(
            "business {}: credited {:?}, debited {:?}; every wallet reconciles",
            keys.iter().position(|k| *k == key).unwrap_or(0) + 1,
            ledger.credited,
            ledger.debited
        );
    }
    assert!(
        env.answered_total() >= OPERATIONS - expected_refusals,
        "the sandbox answered {} requests",
        env.answered_total()
    );
    // Money moved both ways in both businesses, in both currencies.
    for ledger in ledgers.values() {
        for currency in [Currency::Ngn, Currency::Usd] {
            assert!(ledger.credited.contains_key(&currency), "{ledger:?}");
            assert!(ledger.debited.contains_key(&currency), "{ledger:?}");
        }
    }
    capture.assert_no_leak(&keys);
}
