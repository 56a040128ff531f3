//! JSON request bodies read for the generated views, once for every
//! reader of JSON: the sandbox's body reader and the SDK's JSON checks.
//!
//! A body is parsed into a [`Json`] tree in one pass over its text
//! ([`parse_object`]), numbers keeping their exact text (never through
//! `f64`), and read through [`JsonReader`], the one [`FieldReader`] over
//! JSON: it records a violation for each field of the wrong type, naming
//! its path (`businessAddress.city: must be a string`), and reads the field
//! as absent, so the rules still see, and report, every other field. What
//! a `null` and a field no view asks for mean is the reader's [`Policy`].
//!
//! ```
//! use crossborder_core::json::{parse_object, JsonReader, NullFields, Policy, UnknownFields};
//! use crossborder_core::payout::PayoutFields;
//!
//! let body = parse_object(br#"{"sessionId": 5, "amount": "10", "colour": "red"}"#, 32).unwrap();
//! let policy = Policy { null: NullFields::Absent, unknown: UnknownFields::Refuse };
//! let mut reader = JsonReader::new(&body, policy);
//! let view = PayoutFields::read(&mut reader);
//! assert_eq!(view.amount, Some("10"));
//! assert_eq!(view.session_id, None);
//! let messages: Vec<String> = reader.finish().iter().map(ToString::to_string).collect();
//! assert_eq!(
//!     messages,
//!     [
//!         "sessionId: must be a string",
//!         "colour: is not a field of this request",
//!     ]
//! );
//! ```
//!
//! [`FieldReader`]: crate::FieldReader

mod parse;
mod reader;
mod tree;

pub use parse::{parse_object, ParseError};
pub use reader::{JsonReader, NullFields, Policy, UnknownFields};
pub use tree::{Json, Number, Object};
