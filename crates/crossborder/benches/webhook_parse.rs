//! Parsing and classifying a typical webhook event (goal: under 5 µs).
//!
//! `cargo bench -p crossborder --bench webhook_parse`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use crossborder::webhook::WebhookEvent;

/// The sandbox's partial-payment event, as POSTed.
const TYPICAL: &str = r#"{"reference":"order-10045","memo":"PAY-7KQ2M9XD","amount":50000,"paidAmount":20000,"remainingAmount":30000,"currency":"NGN","status":false,"message":"Partial payment received"}"#;

/// The same event with aliases, numeric strings and unknown fields.
const TOLERANT: &str = r#"{"paymentReference":"order-10045","payRefrence":"PAY-7KQ2M9XD","amount":"50000.00","amountPaid":"20000.00","remaining":"30000.00","currency":"NGN","status":"PARTIALLY_PAID","message":"Partial payment received","eventId":"evt_01HZX3K9QW","createdAt":"2026-11-21T12:00:00Z","metadata":{"source":"bank","attempt":1}}"#;

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("webhook_parse");
    for (name, body) in [("typical", TYPICAL), ("tolerant", TOLERANT)] {
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let event = WebhookEvent::parse(black_box(body.as_bytes()));
                black_box(event.map(|event| event.classify()))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
