//! `payout_validate`: validating one full payout request, every rule
//! applied (a converting NGN to GBP payout, with an IBAN, a sort code with
//! dashes and a BIC, so the format checks run too). `cargo xtask bench`
//! reads its median as `payout_validate_ns` (goal under 1,000 ns).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use crossborder_core::payout::{validate_payout, PayoutFields};

fn payout_validate(c: &mut Criterion) {
    let fields = PayoutFields {
        amount: Some("150000.50"),
        from_currency: Some("NGN"),
        to_currency: Some("GBP"),
        narration: Some("Invoice 2291"),
        session_id: Some("6f1c2a8e-4b7d-4e0a-9c3f-2d5b8e1a7c40"),
        rate_key: Some("rk_9f2c4e1a7b3d4c5e"),
        account_number: Some("GB82 WEST 1234 5698 7654 32"),
        account_name: Some("JANE SMITH"),
        bank_name: Some("Barclays Bank"),
        sort_code: Some("20-00-00"),
        swift_code: Some("BARCGB22"),
        ..PayoutFields::default()
    };
    assert!(validate_payout(&fields).is_ok());
    c.bench_function("payout_validate", |b| {
        b.iter(|| validate_payout(black_box(&fields)))
    });
}

criterion_group!(benches, payout_validate);
criterion_main!(benches);
