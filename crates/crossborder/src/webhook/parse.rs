//! Tolerant parsing of a webhook body: the field names of ASSUMPTIONS.md
//! A26 and their likely alternatives, `status` a boolean or a string,
//! amounts as exact numbers or numeric strings, unknown fields ignored.
//!
//! The body is read once by serde_json into borrowed raw values (no
//! intermediate `serde_json::Value`, whose numbers would pass through
//! `f64`), then each known field is converted on its own.

use std::fmt;

use crossborder_api::decimal::Amount;
use rust_decimal::Decimal;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::event::{EventCurrency, EventStatus, WebhookEvent};

/// Why a webhook body could not be read as an event. No variant quotes the
/// body: an error can be logged without echoing what a sender wrote.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The body is empty or only whitespace.
    #[error("the body is empty")]
    Empty,
    /// The body is not UTF-8 text.
    #[error("the body is not UTF-8 text")]
    NotUtf8,
    /// The body is not JSON.
    #[error("the body is not JSON (syntax error at line {line}, column {column})")]
    NotJson {
        /// Line of the first error, from 1.
        line: usize,
        /// Column of the first error, from 1.
        column: usize,
    },
    /// The body ends in the middle of a JSON value.
    #[error("the body is truncated JSON")]
    Truncated,
    /// The body is JSON but not an object.
    #[error("the body is not a JSON object")]
    NotAnObject,
    /// A required field (`reference` or `status`) is absent or null.
    #[error("`{field}` is required")]
    Missing {
        /// The field's name (ASSUMPTIONS.md A26).
        field: &'static str,
    },
    /// A field has a value of the wrong kind.
    #[error("`{field}` must be {expected}")]
    Invalid {
        /// The field's name as the body spelled it.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
}

/// The fields of an event, each filled from one of several wire names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Reference,
    Memo,
    Amount,
    PaidAmount,
    RemainingAmount,
    Currency,
    Status,
    Message,
}

const SLOTS: usize = 8;

/// A known wire name: the slot it fills, its rank (0 is the name
/// ASSUMPTIONS.md A26 gives; when a body carries two names of one field the
/// lower rank wins) and the name itself, for errors.
#[derive(Debug, Clone, Copy)]
struct Name {
    slot: Slot,
    rank: u8,
    name: &'static str,
}

/// Every wire name read, with its slot and rank. The alternatives are the
/// spellings the spec's own resources use for the same values
/// (`paymentReference`, `payRefrence`) and common variants.
fn known_name(key: &str) -> Option<Name> {
    let (slot, rank, name) = match key {
        "reference" => (Slot::Reference, 0, "reference"),
        "paymentReference" => (Slot::Reference, 1, "paymentReference"),
        "payment_reference" => (Slot::Reference, 2, "payment_reference"),
        "memo" => (Slot::Memo, 0, "memo"),
        "payRefrence" => (Slot::Memo, 1, "payRefrence"),
        "payReference" => (Slot::Memo, 2, "payReference"),
        "pay_reference" => (Slot::Memo, 3, "pay_reference"),
        "amount" => (Slot::Amount, 0, "amount"),
        "paidAmount" => (Slot::PaidAmount, 0, "paidAmount"),
        "amountPaid" => (Slot::PaidAmount, 1, "amountPaid"),
        "paid_amount" => (Slot::PaidAmount, 2, "paid_amount"),
        "remainingAmount" => (Slot::RemainingAmount, 0, "remainingAmount"),
        "remaining" => (Slot::RemainingAmount, 1, "remaining"),
        "amountRemaining" => (Slot::RemainingAmount, 2, "amountRemaining"),
        "remaining_amount" => (Slot::RemainingAmount, 3, "remaining_amount"),
        "currency" => (Slot::Currency, 0, "currency"),
        "fromCurrency" => (Slot::Currency, 1, "fromCurrency"),
        "status" => (Slot::Status, 0, "status"),
        "message" => (Slot::Message, 0, "message"),
        "reason" => (Slot::Message, 1, "reason"),
        _ => return None,
    };
    Some(Name { slot, rank, name })
}

/// A key of the body: a known name or anything else.
struct Key(Option<Name>);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(Key(known_name(key)))
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// The raw value of each slot, with the name it came from.
struct RawFields<'a>([Option<(&'a RawValue, Name)>; SLOTS]);

impl<'de: 'a, 'a> Deserialize<'de> for RawFields<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for FieldsVisitor<'a> {
            type Value = RawFields<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a webhook event object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<RawFields<'a>, M::Error> {
                let mut slots: [Option<(&'a RawValue, Name)>; SLOTS] = [None; SLOTS];
                while let Some(Key(name)) = map.next_key::<Key>()? {
                    let Some(name) = name else {
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    };
                    let value: &'de RawValue = map.next_value()?;
                    // A `null` is an absent field, so it never hides an
                    // alias sent with a value (`"reference": null` next to
                    // `paymentReference`).
                    if value.get() == "null" {
                        continue;
                    }
                    let slot = &mut slots[name.slot as usize];
                    if slot.is_none_or(|(_, kept)| name.rank < kept.rank) {
                        *slot = Some((value, name));
                    }
                }
                Ok(RawFields(slots))
            }
        }
        deserializer.deserialize_map(FieldsVisitor(std::marker::PhantomData))
    }
}

impl<'a> RawFields<'a> {
    /// The value of `slot` unless it is absent (a `null` is never kept).
    fn get(&self, slot: Slot) -> Option<(&'a str, Name)> {
        let (raw, name) = self.0[slot as usize]?;
        Some((raw.get(), name))
    }

    /// A string; with `numbers_too`, a JSON number is kept as its text.
    fn text(&self, slot: Slot, numbers_too: bool) -> Result<Option<String>, ParseError> {
        let Some((raw, name)) = self.get(slot) else {
            return Ok(None);
        };
        let expected = if numbers_too {
            "a string or a number"
        } else {
            "a string"
        };
        let invalid = ParseError::Invalid {
            field: name.name,
            expected,
        };
        match raw.as_bytes().first() {
            Some(b'"') => serde_json::from_str(raw).map(Some).map_err(|_| invalid),
            Some(b'-' | b'0'..=b'9') if numbers_too => Ok(Some(raw.to_owned())),
            _ => Err(invalid),
        }
    }

    /// An exact decimal from a JSON number or numeric string.
    fn amount(&self, slot: Slot) -> Result<Option<Decimal>, ParseError> {
        let Some((raw, name)) = self.get(slot) else {
            return Ok(None);
        };
        serde_json::from_str::<Amount>(raw)
            .map(|amount| Some(amount.get()))
            .map_err(|_| ParseError::Invalid {
                field: name.name,
                expected: "a number or a numeric string",
            })
    }

    fn status(&self) -> Result<EventStatus, ParseError> {
        let (raw, name) = self
            .get(Slot::Status)
            .ok_or(ParseError::Missing { field: "status" })?;
        match raw {
            "true" => Ok(EventStatus::Flag(true)),
            "false" => Ok(EventStatus::Flag(false)),
            _ => match self.text(Slot::Status, false) {
                Ok(Some(text)) => Ok(EventStatus::Text(text)),
                _ => Err(ParseError::Invalid {
                    field: name.name,
                    expected: "a boolean or a string",
                }),
            },
        }
    }
}

impl WebhookEvent {
    /// Parses a webhook body: a JSON object, read tolerantly (aliases of the
    /// field names, `status` a boolean or a string, amounts as exact numbers
    /// or numeric strings, unknown fields ignored, a `null` field absent).
    /// Only the reference and the status are required.
    ///
    /// The error never quotes the body, so it can be logged as it is.
    pub fn parse(body: impl AsRef<[u8]>) -> Result<WebhookEvent, ParseError> {
        parse_event(body.as_ref())
    }
}

/// Reads `body` as an event (see [`WebhookEvent::parse`]).
fn parse_event(body: &[u8]) -> Result<WebhookEvent, ParseError> {
    let text = std::str::from_utf8(body).map_err(|_| ParseError::NotUtf8)?;
    if text.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    let fields: RawFields<'_> = serde_json::from_str(text).map_err(|error| {
        use serde_json::error::Category;
        match error.classify() {
            Category::Eof => ParseError::Truncated,
            Category::Data => ParseError::NotAnObject,
            Category::Syntax | Category::Io => ParseError::NotJson {
                line: error.line(),
                column: error.column(),
            },
        }
    })?;
    let reference = fields
        .text(Slot::Reference, true)?
        .ok_or(ParseError::Missing { field: "reference" })?;
    if reference.trim().is_empty() {
        let name = fields
            .get(Slot::Reference)
            .map_or("reference", |(_, n)| n.name);
        return Err(ParseError::Invalid {
            field: name,
            expected: "a non-empty string",
        });
    }
    Ok(WebhookEvent {
        reference,
        memo: fields.text(Slot::Memo, true)?,
        amount: fields.amount(Slot::Amount)?,
        paid_amount: fields.amount(Slot::PaidAmount)?,
        remaining_amount: fields.amount(Slot::RemainingAmount)?,
        currency: fields
            .text(Slot::Currency, false)?
            .map(|code| EventCurrency::from(code.as_str())),
        status: fields.status()?,
        message: fields.text(Slot::Message, false)?,
        raw: text.to_owned(),
    })
}
