//! Every operation: the request sent (method, path, key header, exact JSON
//! body) and the mapping of the response, with exact amounts.

use crate::common;

mod businesses;
mod client;
mod collections;
mod documents;
mod payouts;
mod quotes;
mod wallet_and_banks;
mod webhooks_and_sandbox;

use std::time::Duration;

use common::mock::{self, ok, Answers};
use common::{
    assert_error_is, assert_invalid, assert_nothing_sent, dec, example_funding, first_body,
    payout_json, polling, requests_received, setup, transaction_json, violation_messages, KEY,
};
use crossborder::{
    error::Rule, types::AmountText, types::BusinessDetails, types::BusinessStatus,
    types::BusinessType, types::CollectionRequest, types::CreateBusinessRequest,
    types::DocumentLink, types::DocumentType, types::MonthlyTransactionVolume,
    types::PayoutRequest, types::PersonRequest, types::PersonRole, types::QuoteRequest,
    types::Rail, types::ResolveAccountRequest, types::SimulateFundingRequest, types::SourceOfFund,
    types::TransactionStatus, types::TransactionType, types::UpdateBusinessRequest, ClientBuilder,
    Currency, Error, WaitOptions,
};
use serde_json::{json, Value};
use wiremock::matchers::{body_json, header, query_param};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn raw_body(request: &Request) -> String {
    String::from_utf8(request.body.clone()).unwrap()
}

/// Every read of the collection `order-10045` finds it with `status`.
async fn order_reads_as(server: &MockServer, status: &str) {
    mock::transaction("order-10045")
        .answers(server, ok(transaction_json(status)))
        .await;
}

/// The collection `order-10045` is read exactly once, with `status`.
async fn order_reads_once_as(server: &MockServer, status: &str) {
    mock::transaction("order-10045")
        .answers_once(server, ok(transaction_json(status)))
        .await;
}
