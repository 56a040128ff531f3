//! Every operation: the request sent (method, path, key header, exact JSON
//! body) and the mapping of the response, with exact amounts.

#[path = "../common/mod.rs"]
mod common;

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
    assert_error_is, assert_invalid, assert_nothing_sent, dec, first_body, payout_json, polling,
    requests_received, setup, transaction_json, violation_messages, KEY,
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
use wiremock::{Mock, Request, ResponseTemplate};

fn key_header() -> wiremock::matchers::HeaderExactMatcher {
    header("x-api-key", KEY)
}

fn raw_body(request: &Request) -> String {
    String::from_utf8(request.body.clone()).unwrap()
}
