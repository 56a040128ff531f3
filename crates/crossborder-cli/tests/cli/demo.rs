//! `crossborder demo` runs to its end with no configuration, and the
//! commands it suggests next work.

use crate::{at, bare, run, run_now, sandbox, with_stdin};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_runs_to_its_end_and_its_suggestions_work() {
    let mut demo = bare();
    demo.arg("demo");
    let out = tokio::task::spawn_blocking(move || run_now(demo))
        .await
        .unwrap();
    let stdout = out.stdout;
    assert_eq!(out.code, 0, "{stdout}\n{}", out.stderr);
    for expected in [
        "1. Wallet balances",
        "   5000000.00 NGN",
        "rate 1530.25, fee 0.50 USD, the recipient gets 153025.00 NGN",
        "credited to the NGN wallet (the collection's toCurrency)",
        "event demo-order-1: completed, paid 50000; verified: the transaction is COMPLETED",
        "   the settled transaction (GET /api/transaction/demo-order-1):\n     reference     demo-order-1\n     status        COMPLETED\n",
        "     paid          50,000.00 NGN\n",
        ": COMPLETED, 100.50 USD debited, 153025.00 NGN to ADAEZE OKAFOR",
        "   5050000.00 NGN\n   9899.50 USD\n",
        "   added Adaeze Okafor as UBO: the business is submitted for review\n   decision: APPROVED\n",
        "Done. Try next",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    // The quote's rateKey is the one the payout carries.
    let key_of = |prefix: &str| {
        stdout
            .lines()
            .find_map(|line| line.trim().strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no {prefix:?} line in:\n{stdout}"))
            .to_owned()
    };
    let quoted = key_of("rateKey ");
    assert!(quoted.starts_with("rk_"), "{quoted}");
    assert!(
        stdout.contains(&format!(
            "   rateKey {quoted} from step 2 fixes the rate of this payout\n"
        )),
        "{stdout}"
    );

    // Each suggested command, against a sandbox (the export line set what
    // `at` gives).
    let sandbox = sandbox().await;
    let tries: Vec<&str> = stdout
        .split("Done. Try next")
        .nth(1)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|line| {
            ["export ", "crossborder ", "echo "]
                .iter()
                .any(|p| line.starts_with(p))
        })
        .collect();
    assert_eq!(tries.len(), 4, "{tries:?}");
    assert!(
        tries[0].starts_with("export CROSSBORDER_API_KEY="),
        "{}",
        tries[0]
    );
    for line in &tries[1..] {
        let (input, command) = match line.split_once(" | ") {
            Some((echo, command)) => {
                let body = echo
                    .strip_prefix("echo '")
                    .and_then(|rest| rest.strip_suffix('\''))
                    .unwrap();
                (Some(body.to_owned()), command)
            }
            None => (None, *line),
        };
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "crossborder", "{line}");
        let mut command = at(sandbox.base_url());
        command.args(&words[1..]);
        if let Some(body) = input {
            command = with_stdin(command, &body);
        }
        let out = run(command).await;
        assert_eq!(out.code, 0, "{line}: {}", out.stderr);
    }
}
