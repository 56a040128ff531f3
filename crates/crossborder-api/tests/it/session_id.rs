//! The payout `sessionId`'s pattern `^[A-Za-z0-9_-]+$` (ASSUMPTIONS B11) is
//! checked without a regex engine (xtask/src/postprocess.rs): the check must
//! accept and refuse exactly what the pattern does.

use crossborder_api::types::PayoutRequestSessionId;

#[test]
fn the_session_id_takes_letters_digits_underscores_and_hyphens_only() {
    for accepted in [
        "a",
        "Z",
        "0",
        "_",
        "-",
        "settlement-2291_A",
        &"x".repeat(100),
    ] {
        let id: PayoutRequestSessionId = accepted
            .parse()
            .unwrap_or_else(|error| panic!("{accepted:?}: {error}"));
        assert_eq!(id.as_str(), accepted);
    }
    let pattern = "doesn't match pattern \"^[A-Za-z0-9_-]+$\"";
    for refused in [
        "a b", "a.b", "a/b", "é", "ａ", "a\n", "\nA", "a\u{0}", "a+b", "ab$",
    ] {
        let error = refused.parse::<PayoutRequestSessionId>().unwrap_err();
        assert_eq!(error.to_string(), pattern, "{refused:?}");
    }
    assert_eq!(
        "".parse::<PayoutRequestSessionId>()
            .unwrap_err()
            .to_string(),
        "shorter than 1 characters"
    );
    assert_eq!(
        "x".repeat(101)
            .parse::<PayoutRequestSessionId>()
            .unwrap_err()
            .to_string(),
        "longer than 100 characters"
    );
}
