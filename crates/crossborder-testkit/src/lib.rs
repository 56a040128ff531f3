//! Test helpers for code that uses the `crossborder` SDK, and the one test
//! harness of this workspace's own suites.
//!
//! Add it next to the SDK as a dev-dependency:
//!
//! ```toml
//! [dev-dependencies]
//! crossborder-testkit = "0.1"
//! tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
//! ```
//!
//! Then each test starts its own in-process sandbox on 127.0.0.1, on a
//! manual clock fixed at [`start_instant`], and gets a client for it in one
//! call:
//!
//! ```
//! use std::time::Duration;
//! use crossborder::{types::TransactionStatus, Currency, Decimal};
//! use crossborder_testkit::{fixtures, wait_for_status, TestSandbox};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = TestSandbox::start().await;
//! let client = sandbox.client(TestSandbox::KEY);
//!
//! let payout = fixtures::ngn_bank_payout(Decimal::new(2_500, 0), "invoice-2291");
//! let receipt = client.payouts().create(&payout).await?;
//! let paid = wait_for_status(&client, &receipt.session_id, TransactionStatus::Completed,
//!     Duration::from_secs(5)).await?;
//! assert_eq!(paid.amount, Decimal::new(2_500, 0));
//! assert_eq!(client.wallet().balance(Currency::Ngn).await?.amount, Decimal::new(4_997_500, 0));
//! # Ok(()) }
//! ```
//!
//! What it holds:
//!
//! * [`TestSandbox`]: a sandbox on the fixed clock with an SDK client
//!   ([`TestSandbox::client`]) and raw HTTP requests that return a [`Reply`],
//!   with the steps a test of the API itself takes (a refused request and
//!   its error body in one step, collections, fundings, reads, the webhook,
//!   uploads as [`multipart`] bodies, document links);
//!   [`TestSandbox::start_with`] takes a [`SandboxConfig`], re-exported
//!   here so a test needs no second dev-dependency;
//!   [`client_for`] makes a client for any running
//!   [`SandboxHandle`](crossborder_sandbox::SandboxHandle);
//! * [`wait_for_status`] and [`wait_until`]: bounded polling until a
//!   transaction (a collection or a payout) reaches a status, or until any
//!   read says so; [`within`]: one bounded await;
//! * [`onboarded_business`]: a sub-business created with its document and,
//!   when asked, submitted with a director and a UBO;
//! * [`open_ngn_collection`] and [`pay_collection`]: a collection opened
//!   and paid (in part or whole) as a payer would, in staging;
//! * [`post_event`]: POSTs any body (a forged, stale or malformed webhook
//!   event) to a receiver's URL and returns its answer;
//! * [`fixtures`]: a complete business, a director or UBO, payouts and a
//!   bank account of each destination family, typed and as the API's JSON,
//!   so every suite sends the same requests;
//! * [`assert_error_body`]: the check of the API's documented error body;
//!   [`assert_api_error`]: the check of an SDK call the API refused;
//! * [`WebhookReceiver`]: records every webhook POST and answers 200;
//!   [`LocalServer`]: serves any axum app of a test on 127.0.0.1;
//!   [`loopback_listener`]: a free 127.0.0.1 port for any other server;
//!   [`oversized_server`]: answers every request with a body larger than
//!   any response cap (endless, or a `Content-Length` it never sends).
//! * [`postgres`]: a throwaway PostgreSQL server (Debian's `postgresql`
//!   package), for code that keeps its state there.
//!
//! Everything listens on or connects to 127.0.0.1, and every wait is bounded.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod business;
mod clock;
mod collect;
mod events;
pub mod fixtures;
mod http;
mod loopback;
mod oversized;
pub mod postgres;
mod receiver;
mod refusal;
mod reply;
mod sandbox;
mod serve;
mod upload;
mod wait;

pub use business::onboarded_business;
pub use clock::{manual_clock, start_instant, START_UNIX_SECONDS};
pub use collect::{open_ngn_collection, pay_collection};
pub use events::{post_event, EventReply};
pub use loopback::loopback_listener;
pub use oversized::{oversized_server, Oversized};
pub use receiver::{ReceivedWebhook, WebhookReceiver};
pub use refusal::assert_api_error;
pub use reply::{assert_error_body, read_reply, Reply};
pub use sandbox::{client_for, sdk_client, sdk_client_with, TestSandbox, REQUEST_TIMEOUT};
pub use serve::LocalServer;
pub use upload::{multipart, BOUNDARY};
pub use wait::{wait_for_status, wait_until, within, WaitError};

pub use crossborder_sandbox::{SandboxConfig, NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY};
