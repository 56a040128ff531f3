//! The faults helper: a sandbox started with faults, and the faults it
//! injected read back typed, oldest first, each naming what it hit.

use crossborder::{Decimal, Outcome};
use crossborder_testkit::{fixtures, FaultConfig, FaultKind, TestSandbox, PRODUCTION_KEY};

#[tokio::test]
async fn the_faults_injected_are_read_back_typed_oldest_first() {
    let sandbox = TestSandbox::start_with_faults(FaultConfig::standard(38)).await;
    let client = sandbox.client(TestSandbox::KEY);
    for index in 0..60 {
        let session = format!("kit-fault-{index}");
        let payout = fixtures::ngn_bank_payout(Decimal::new(10_000, 2), &session);
        let _ = client.payouts().create(&payout).await;
    }
    let injected = sandbox.faults();
    assert!(injected.len() > 3, "{injected:?}");
    // Oldest first: the ids count up.
    let ids: Vec<&str> = injected.iter().map(|fault| fault.id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted);
    assert_eq!(injected[0].id, "flt_000001");
    // The same list the control API's state holds, newest first there.
    let state = sandbox.sandbox.state(TestSandbox::KEY).unwrap();
    let listed: Vec<(String, String)> = state
        .faults
        .iter()
        .rev()
        .map(|fault| (fault.fault_id.clone(), fault.kind.clone()))
        .collect();
    let typed: Vec<(String, String)> = injected
        .iter()
        .map(|fault| (fault.id.clone(), fault.kind.to_string()))
        .collect();
    assert_eq!(typed, listed);
    // Another business met none.
    assert_eq!(sandbox.faults_of(PRODUCTION_KEY), []);
}

#[tokio::test]
async fn a_test_asserts_which_request_a_fault_hit() {
    let faults = FaultConfig::off()
        .with_rate(FaultKind::WriteApplied504, Decimal::ONE)
        .unwrap();
    let sandbox = TestSandbox::start_with_faults(faults).await;
    let client = sandbox.client(TestSandbox::KEY);
    let payout = fixtures::ngn_bank_payout(Decimal::new(2_500, 0), "kit-lost");
    let error = client.payouts().create(&payout).await.unwrap_err();
    assert_eq!(error.outcome(), Outcome::MayHaveBeenApplied);
    let injected = sandbox.faults();
    assert_eq!(injected.len(), 1, "{injected:?}");
    let fault = &injected[0];
    assert_eq!(fault.kind, FaultKind::WriteApplied504);
    assert_eq!(fault.target, "POST /v1/api/payout (sessionId kit-lost)");
    assert!(fault.hit("kit-lost"));
    assert!(!fault.hit("kit-lo"));
    assert!(fault.hit("POST /v1/api/payout (sessionId kit-lost)"));
    assert_eq!(fault.applied, "applied, answered 200; the answer was lost");
}
