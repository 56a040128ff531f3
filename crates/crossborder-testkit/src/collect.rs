//! A collection opened and paid in two calls: what a test of code that
//! waits for a payer needs.

use crossborder::{
    types::CollectionRequest, types::SimulateFundingRequest, types::Transaction, Client, Currency,
    Decimal,
};

/// Opens a same-currency NGN collection of `amount` for the order
/// `reference` and returns it (its `pay_reference` is the memo a payer
/// uses, and [`pay_collection`] takes).
///
/// # Errors
///
/// The SDK's error for the create.
pub async fn open_ngn_collection(
    client: &Client,
    reference: &str,
    amount: Decimal,
) -> crossborder::Result<Transaction> {
    let request = CollectionRequest::new(reference, amount, Currency::Ngn, Currency::Ngn);
    client.collections().create(&request).await
}

/// Pays `amount` NGN into the collection whose memo is `memo`, as a payer
/// would (the staging-only funding simulation), under `session_id` (so a
/// repeat is the same payment). The collection's status and webhook follow.
///
/// # Errors
///
/// The SDK's error for the simulation (a production key is refused).
pub async fn pay_collection(
    client: &Client,
    memo: &str,
    amount: Decimal,
    session_id: &str,
) -> crossborder::Result<()> {
    let funding = SimulateFundingRequest::new(Currency::Ngn, amount, memo, session_id);
    client.sandbox().simulate_funding(&funding).await.map(drop)
}
