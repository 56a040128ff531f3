//! `--help` of the command and its main subcommands, as snapshots, and the
//! shell completions.

use crate::{bare, run_now};

fn help(args: &[&str]) -> String {
    let mut command = bare();
    command.args(args).arg("--help");
    let out = run_now(command);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn help_lists_every_command() {
    insta::assert_snapshot!("help", help(&[]));
}

#[test]
fn help_of_the_main_subcommands() {
    for (name, args) in [
        ("payout", &["payout"][..]),
        ("business", &["business"]),
        ("business_onboard", &["business", "onboard"]),
        ("business_status", &["business", "status"]),
        ("webhook", &["webhook"]),
        ("webhook_listen", &["webhook", "listen"]),
        ("sandbox", &["sandbox"]),
        ("ledger", &["ledger"]),
    ] {
        insta::assert_snapshot!(name, help(args));
    }
}

#[test]
fn completions_are_generated_for_each_shell() {
    for (shell, marker) in [
        ("bash", "_crossborder()"),
        ("zsh", "#compdef crossborder"),
        ("fish", "complete -c crossborder"),
    ] {
        let mut command = bare();
        command.args(["completions", shell]);
        let out = run_now(command);
        assert_eq!(out.code, 0);
        assert!(out.stdout.contains(marker), "{shell}: {}", out.stdout);
        assert!(out.stdout.contains("simulate-funding"), "{shell}");
        assert!(out.stdout.contains("onboard"), "{shell}");
    }
}
