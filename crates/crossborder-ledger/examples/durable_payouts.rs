//! Payouts that survive a crash: a payroll recorded in a SQLite ledger
//! before anything is sent, a process that dies before it sends, and the
//! restart that pays each employee once.
//!
//! 1. each payout is validated and recorded, with its session id, before
//!    anything is sent (`Ledger::submit`); an invalid one records nothing
//!    and returns every violation;
//! 2. the process stops before its dispatcher runs (here it just drops
//!    the ledger, as a crash would leave it);
//! 3. the restarted process opens the same file, and its dispatcher sends
//!    what is recorded and follows each payout until it is `COMPLETED`;
//!    submitting the payroll again, as a retried job would, finds the same
//!    records and a second dispatcher run sends nothing.
//!
//! ```sh
//! cargo run -p crossborder-cli -- sandbox &
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder-ledger --example durable_payouts -- payroll.db
//! # or against a sandbox in the test process:
//! cargo test -p crossborder-ledger --example durable_payouts
//! ```

use std::time::Duration;

use crossborder::types::{FiatCurrency, LocalBank, LocalBankCurrency, PayoutRequest};
use crossborder::{dec, Client, Currency, Decimal};
use crossborder_ledger::{
    Backoff, DispatchOptions, DispatchReport, Ledger, LedgerError, PayoutRecord,
};

/// The month's payroll: each employee's pay under a session id derived
/// from the month and the employee, so the same job run twice names the
/// same payouts.
fn payroll(month: &str) -> Vec<PayoutRequest> {
    [
        ("ada", "ADAEZE OKAFOR", "0123456789", dec!(450_000.00)),
        ("tunde", "TUNDE BAKARE", "0234567891", dec!(385_500.50)),
        ("ngozi", "NGOZI EZE", "0345678912", dec!(512_250.25)),
    ]
    .into_iter()
    .map(|(who, name, account, pay)| {
        let bank = LocalBank {
            currency: LocalBankCurrency::Ngn,
            account_number: account.into(),
            account_name: name.into(),
            bank_name: "Guaranty Trust Bank".into(),
            bank_code: "058".into(),
        };
        PayoutRequest::pay(pay, FiatCurrency::Ngn, bank)
            .with_session_id(format!("salary-{month}-{who}"))
            .narration(format!("Salary {month}"))
    })
    .collect()
}

/// What the run saw.
#[derive(Debug)]
struct Run {
    /// Each payout as the first process recorded it.
    recorded: Vec<PayoutRecord>,
    /// The restarted process's dispatcher run.
    first: DispatchReport,
    /// The payroll submitted again, then dispatched again.
    again: Vec<PayoutRecord>,
    second: DispatchReport,
}

/// Follows accepted payouts briskly: the sandbox settles them at once.
fn options() -> DispatchOptions {
    let mut options = DispatchOptions::new("payroll-job");
    options.poll = Backoff {
        initial: Duration::from_millis(50),
        max: Duration::from_secs(2),
        factor: 2,
    };
    options
}

async fn pay_the_month(client: &Client, ledger_url: &str, month: &str) -> Result<Run, LedgerError> {
    // The first process: records the payroll, then dies before it sends.
    let recorded = {
        let ledger = Ledger::open(ledger_url).await?;
        let mut broken = payroll(month)
            .remove(0)
            .with_session_id(format!("salary-{month}-typo"));
        broken.account_number = Some("01234".into());
        match ledger.submit(&broken).await {
            Err(LedgerError::Invalid(violations)) => {
                for v in violations.iter() {
                    println!("refused before recording: {}: {}", v.field, v.message);
                }
            }
            other => println!("unexpected: {other:?}"),
        }
        let mut recorded = Vec::new();
        for payout in payroll(month) {
            let record = ledger.submit(&payout).await?;
            println!(
                "recorded {} ({} NGN): {}",
                record.session_id, record.amount, record.state
            );
            recorded.push(record);
        }
        recorded
        // The ledger is dropped here without a dispatcher: a crash.
    };

    // The restart: the same file, a dispatcher that finishes the work.
    let ledger = Ledger::open(ledger_url).await?;
    let dispatcher = ledger.dispatcher(client.clone(), options()).await?;
    let first = dispatcher
        .run_until_idle(|record| println!("  {} is {}", record.session_id, record.state))
        .await?;
    println!(
        "restart: {} sent, {} completed",
        first.sent, first.completed
    );

    // The job runs again (a retry, a second cron tick): same records, no
    // second payment.
    let mut again = Vec::new();
    for payout in payroll(month) {
        again.push(ledger.submit(&payout).await?);
    }
    let second = dispatcher.run_until_idle(|_| {}).await?;
    println!("run again: {} sent", second.sent);
    for event in ledger.history(&again[0].session_id).await? {
        let from = event.from.map_or("-".to_owned(), |s| s.to_string());
        println!(
            "  history of {}: {from} -> {}",
            again[0].session_id, event.to
        );
    }
    Ok(Run {
        recorded,
        first,
        again,
        second,
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::from_env()?;
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "payroll.db".to_owned());
    let month = format!("m{}", std::process::id());
    let run = pay_the_month(&client, &format!("sqlite://{path}"), &month).await?;
    let paid: Decimal = run.again.iter().map(|r| r.amount).sum();
    println!(
        "{} salaries recorded before the crash, {} sent after the restart, {} on the run after; \
         {paid} NGN paid once; NGN balance {}",
        run.recorded.len(),
        run.first.sent,
        run.second.sent,
        client.wallet().balance(Currency::Ngn).await?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder_ledger::PayoutState;
    use crossborder_testkit::TestSandbox;

    #[tokio::test]
    async fn a_payroll_recorded_before_a_crash_is_paid_once_after_the_restart() {
        let sandbox = TestSandbox::start().await;
        let client = sandbox.client(TestSandbox::KEY);
        let dir = std::env::temp_dir().join(format!("durable-payouts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("payroll.db").display());

        let run = pay_the_month(&client, &url, "2026-11").await.unwrap();
        let states = |records: &[PayoutRecord]| -> Vec<PayoutState> {
            records.iter().map(|r| r.state).collect()
        };
        assert_eq!(states(&run.recorded), [PayoutState::Recorded; 3]);
        assert_eq!((run.first.sent, run.first.completed), (3, 3));
        assert_eq!(states(&run.again), [PayoutState::Completed; 3]);
        assert_eq!(run.second, DispatchReport::default());
        let ids: Vec<&str> = run.again.iter().map(|r| r.session_id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "salary-2026-11-ada",
                "salary-2026-11-tunde",
                "salary-2026-11-ngozi"
            ]
        );
        // The invalid payout was never recorded.
        let ledger = Ledger::open(&url).await.unwrap();
        assert_eq!(ledger.payout("salary-2026-11-typo").await.unwrap(), None);
        // 5,000,000 NGN at the start, the payroll out once, to the kobo.
        let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
        assert_eq!(balance.amount, dec!(5_000_000) - dec!(1_347_750.75));
        for id in ids {
            let paid = client.payouts().get(id).await.unwrap();
            assert_eq!(paid.status.as_str(), "COMPLETED");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
