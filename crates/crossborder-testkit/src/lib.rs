#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod business;
mod clock;
mod collect;
mod events;
mod faults;
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
pub use faults::{injected_faults, InjectedFault};
pub use loopback::loopback_listener;
pub use oversized::{oversized_server, Oversized};
pub use receiver::{ReceivedWebhook, WebhookReceiver};
pub use refusal::assert_api_error;
pub use reply::{assert_error_body, read_reply, Reply};
pub use sandbox::{client_for, sdk_client, sdk_client_with, TestSandbox, REQUEST_TIMEOUT};
pub use serve::LocalServer;
pub use upload::{multipart, BOUNDARY};
pub use wait::{wait_for_status, wait_until, within, WaitError};

pub use crossborder_sandbox::faults::{FaultConfig, FaultKind, FaultProfile};
pub use crossborder_sandbox::{SandboxConfig, NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY};
