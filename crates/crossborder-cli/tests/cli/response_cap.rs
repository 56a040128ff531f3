//! A server that answers with an endless body: the command ends with the
//! SDK's response-cap error in one line on stderr, exit code 1.

use crossborder_testkit::{oversized_server, Oversized};

use crate::{at, run};

#[tokio::test]
async fn an_endless_body_is_the_caps_error_in_one_line() {
    let base_url = oversized_server(Oversized::EndlessBody(400));
    let mut balance = at(&base_url);
    balance.args(["balance", "NGN"]);
    let out = run(balance).await;
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "error: the getBalance answer (HTTP 400) is larger than the limit of 1048576 bytes; reading stopped\n"
    );
}
