//! A converting payroll paid from a USD wallet through the ledger: to
//! Lagos (NGN), Nairobi (KES) and London (GBP), each payout recorded
//! without a `rateKey` and quoted by the dispatcher just before it is sent.
//!
//! 1. each payout is checked for everything but the quote and recorded
//!    (`Ledger::submit`): no quote is taken yet, so none can expire while
//!    the payroll waits, or across a crash and a restart;
//! 2. the GBP payout carries a rate guard (`Ledger::submit_with_guard`):
//!    a quote under 0.75 GBP a dollar would not be used, and it would be
//!    quoted again until the deadline, then end refused with
//!    `PayoutReason::RateGuard`;
//! 3. the dispatcher quotes each payout for its pair and amount, records
//!    the quote in the payout's history in the transaction that makes it
//!    `sending`, sends it with that key and follows it until `COMPLETED`;
//! 4. the history tells which rate paid each salary.
//!
//! ```sh
//! cargo run -p crossborder-cli -- sandbox &
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder-ledger --example converting_payroll -- payroll.db
//! # or against a sandbox in the test process:
//! cargo test -p crossborder-ledger --example converting_payroll
//! ```

use std::time::{Duration, SystemTime};

use crossborder::types::{FiatCurrency, LocalBank, LocalBankCurrency, PayoutRequest, UkBank};
use crossborder::{dec, Client, Currency, Decimal};
use crossborder_ledger::{
    Backoff, DispatchOptions, Ledger, LedgerError, PayoutQuote, PayoutRecord, RateGuard,
};

/// The month's contractors, each paid in USD and received in their own
/// currency, under a session id derived from the month and the person.
fn payroll(month: &str) -> Vec<PayoutRequest> {
    let lagos = LocalBank {
        currency: LocalBankCurrency::Ngn,
        account_number: "0123456789".into(),
        account_name: "ADAEZE OKAFOR".into(),
        bank_name: "Guaranty Trust Bank".into(),
        bank_code: "058".into(),
    };
    let nairobi = LocalBank {
        currency: LocalBankCurrency::Kes,
        account_number: "254712345678".into(),
        account_name: "WANJIKU KAMAU".into(),
        bank_name: "Equity Bank Kenya".into(),
        bank_code: "68".into(),
    };
    let london = UkBank {
        account_number: "31926819".into(),
        account_name: "JANE SMITH".into(),
        bank_name: "Barclays Bank".into(),
        sort_code: "20-00-00".into(),
        swift_code: "BARCGB22".into(),
    };
    vec![
        PayoutRequest::pay(dec!(1200.00), FiatCurrency::Usd, lagos)
            .with_session_id(format!("contract-{month}-adaeze")),
        PayoutRequest::pay(dec!(950.50), FiatCurrency::Usd, nairobi)
            .with_session_id(format!("contract-{month}-wanjiku")),
        PayoutRequest::pay(dec!(2100.00), FiatCurrency::Usd, london)
            .with_session_id(format!("contract-{month}-jane")),
    ]
}

/// Each payout as the run left it, with the quote it was paid at.
async fn pay_the_month(
    client: &Client,
    ledger_url: &str,
    month: &str,
) -> Result<Vec<(PayoutRecord, PayoutQuote)>, LedgerError> {
    let ledger = Ledger::open(ledger_url).await?;
    for payout in payroll(month) {
        // No rateKey: the ledger quotes it when it sends it.
        assert!(payout.needs_quote());
        let record = if payout.to_currency == Currency::Gbp {
            let guard =
                RateGuard::new(dec!(0.75), SystemTime::now() + Duration::from_secs(15 * 60));
            ledger.submit_with_guard(&payout, guard).await?
        } else {
            ledger.submit(&payout).await?
        };
        println!(
            "recorded {} ({} USD -> {}): {}",
            record.session_id, record.amount, record.to_currency, record.state
        );
    }

    let mut options = DispatchOptions::new("payroll-job");
    options.poll = Backoff {
        initial: Duration::from_millis(50),
        max: Duration::from_secs(2),
        factor: 2,
    };
    let report = ledger
        .dispatcher(client.clone(), options)
        .await?
        .run_until_idle(|record| println!("  {} is {}", record.session_id, record.state))
        .await?;
    println!("{} sent, {} completed", report.sent, report.completed);

    let mut paid = Vec::new();
    for payout in payroll(month) {
        let Some(record) = ledger.payout(&payout.session_id).await? else {
            continue;
        };
        // The last quote the payout was sent with is the one that paid it.
        let history = ledger.history(&record.session_id).await?;
        let Some(quote) = history
            .iter()
            .rev()
            .find_map(|event| event.quote.clone().filter(|quote| quote.used))
        else {
            continue;
        };
        println!(
            "{}: {} at {} {}/USD (rateKey {}), {} USD debited",
            record.session_id,
            record.state,
            quote.rate,
            record.to_currency,
            quote.rate_key,
            quote.total_amount.unwrap_or(record.amount)
        );
        paid.push((record, quote));
    }
    Ok(paid)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::from_env()?;
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "payroll.db".to_owned());
    let month = format!("m{}", std::process::id());
    let paid = pay_the_month(&client, &format!("sqlite://{path}"), &month).await?;
    let debited: Decimal = paid
        .iter()
        .filter_map(|(_, quote)| quote.total_amount)
        .sum();
    println!(
        "{} contractors paid, {debited} USD debited; USD balance {}",
        paid.len(),
        client.wallet().balance(Currency::Usd).await?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder_ledger::PayoutState;
    use crossborder_testkit::TestSandbox;

    #[tokio::test]
    async fn a_converting_payroll_is_quoted_at_send_time_and_paid_once() {
        let sandbox = TestSandbox::start().await;
        let client = sandbox.client(TestSandbox::KEY);
        let opening = client.wallet().balance(Currency::Usd).await.unwrap().amount;
        let dir = std::env::temp_dir().join(format!("converting-payroll-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("payroll.db").display());

        let paid = pay_the_month(&client, &url, "2026-11").await.unwrap();
        assert_eq!(paid.len(), 3);
        let mut debited = Decimal::ZERO;
        for (record, quote) in &paid {
            assert_eq!(record.state, PayoutState::Completed);
            // Sent with the key of the quote its history records.
            let held = client.payouts().get(&record.session_id).await.unwrap();
            assert_eq!(held.rate_key.as_deref(), Some(quote.rate_key.as_str()));
            assert_eq!(Some(held.total_amount), quote.total_amount);
            debited += held.total_amount;
        }
        let rates: Vec<String> = paid.iter().map(|(_, q)| q.rate.to_string()).collect();
        assert_eq!(rates, ["1530.25", "129.5", "0.79"]);
        // 1,200.00 + 950.50 + 2,100.00 USD and the sandbox's 0.5 % fee
        // (6.00 + 4.75 + 10.50).
        assert_eq!(debited, dec!(4250.50) + dec!(21.25));
        let balance = client.wallet().balance(Currency::Usd).await.unwrap();
        assert_eq!(balance.amount, opening - debited);
        let _ = std::fs::remove_dir_all(dir);
    }
}
