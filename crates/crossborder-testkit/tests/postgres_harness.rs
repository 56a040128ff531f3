//! The throwaway PostgreSQL server: it starts, serves a database on
//! 127.0.0.1, and is stopped and removed on drop.

use std::process::Command;

use crossborder_testkit::postgres::Postgres;

#[test]
fn a_server_starts_serves_a_database_and_is_removed_on_drop() {
    let Some(server) = Postgres::start_or_skip("postgres harness") else {
        return;
    };
    let url = server.create_database("ledger_test").unwrap();
    assert_eq!(
        url,
        format!(
            "postgres://postgres@127.0.0.1:{}/ledger_test",
            server.port()
        )
    );
    let port = server.port().to_string();
    let ready = Command::new("/bin/sh")
        .args(["-c", "\"$(ls -d /usr/lib/postgresql/*/bin | tail -1)/pg_isready\" -h 127.0.0.1 -p \"$1\" -d ledger_test", "sh", &port])
        .output()
        .unwrap();
    assert!(
        ready.status.success(),
        "{}",
        String::from_utf8_lossy(&ready.stdout)
    );
    let dir = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.join("server.log").exists()
                && path
                    .to_string_lossy()
                    .contains(&format!("crossborder-pg-{}-", std::process::id()))
        })
        .count();
    assert_eq!(dir, 1);
    drop(server);
    let ready = Command::new("/bin/sh")
        .args([
            "-c",
            "\"$(ls -d /usr/lib/postgresql/*/bin | tail -1)/pg_isready\" -h 127.0.0.1 -p \"$1\"",
            "sh",
            &port,
        ])
        .output()
        .unwrap();
    assert!(
        !ready.status.success(),
        "the server still answers after drop"
    );
    let left = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with(&format!("crossborder-pg-{}-", std::process::id()))
        })
        .count();
    assert_eq!(left, 0, "the server's directory is removed");
}
