//! The throwaway PostgreSQL server: it starts, serves a database on
//! 127.0.0.1, and is stopped and removed on drop.

use std::process::Command;

use crossborder_testkit::postgres::Postgres;

/// Whether a server answers on 127.0.0.1:`port` (`pg_isready`).
fn answers(port: u16) -> bool {
    let script =
        "\"$(ls -d /usr/lib/postgresql/*/bin | tail -1)/pg_isready\" -h 127.0.0.1 -p \"$1\"";
    let status = Command::new("/bin/sh")
        .args(["-c", script, "sh", &port.to_string()])
        .status();
    status.unwrap().success()
}

/// This process's server directories under the temporary directory.
fn directories() -> usize {
    let prefix = format!("crossborder-pg-{}-", std::process::id());
    let entries = std::fs::read_dir(std::env::temp_dir()).unwrap();
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .count()
}

#[test]
#[ignore = "needs PostgreSQL"]
fn a_server_starts_serves_a_database_and_is_removed_on_drop() {
    let Some(server) = Postgres::start_or_skip("postgres harness") else {
        return;
    };
    let url = server.create_database("ledger_test").unwrap();
    let port = server.port();
    assert_eq!(
        url,
        format!("postgres://postgres@127.0.0.1:{port}/ledger_test")
    );
    assert!(answers(port));
    assert_eq!(directories(), 1);
    drop(server);
    assert!(!answers(port), "the server still answers after drop");
    assert_eq!(directories(), 0, "the server's directory is removed");
}
