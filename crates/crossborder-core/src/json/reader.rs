//! The one [`FieldReader`] over JSON.

use rust_decimal::Decimal;

use super::tree::{Json, Object};
use crate::suggest::nearest_name;
use crate::{FieldReader, Rule, Violation};

/// What a `null` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NullFields {
    /// The field is absent (a check of a file someone wrote).
    Absent,
    /// The field has the wrong type (the sandbox: `null` is no string).
    WrongType,
}

/// What a field no view asks for means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownFields {
    /// It is left alone, as the service leaves it.
    Ignore,
    /// It is refused, naming the nearest field the object has (ASSUMPTIONS
    /// C17): a misspelt field is otherwise dropped without a word.
    Refuse,
}

/// How a [`JsonReader`] reads what is not plainly a field of the right type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// What a `null` means.
    pub null: NullFields,
    /// What a field no view asks for means.
    pub unknown: UnknownFields,
}

/// The type messages, each written once.
const STRING: &str = "must be a string";
const NUMBER: &str = "must be a number";
const BOOLEAN: &str = "must be a boolean";
const STRINGS: &str = "must be an array of strings";
const OBJECT: &str = "must be an object";
const INEXACT: &str = "has more digits than can be represented exactly";

/// The object a map's entry of the wrong type reads as.
static EMPTY: Object = Object::new();

/// A check of a number's value beyond its type (the sandbox's amount cap),
/// given the field's path.
pub type NumberCheck = fn(&str, Decimal) -> Result<(), Violation>;

/// Reads a JSON object for a generated view (`PayoutFields::read`...),
/// recording each field of the wrong type (and read as absent), and, by its
/// [`Policy`], each field no view asked for.
#[derive(Debug)]
pub struct JsonReader<'a> {
    current: &'a Object,
    /// The path of the current object, with a trailing `.` (or empty).
    prefix: String,
    /// The fields a view asked for in the current object.
    asked: Vec<&'static str>,
    policy: Policy,
    number_check: Option<NumberCheck>,
    wrong: Vec<Violation>,
    unknown: Vec<Violation>,
}

impl<'a> JsonReader<'a> {
    /// A reader of `object`, with no violation yet.
    pub fn new(object: &'a Object, policy: Policy) -> JsonReader<'a> {
        JsonReader {
            current: object,
            prefix: String::new(),
            asked: Vec::new(),
            policy,
            number_check: None,
            wrong: Vec::new(),
            unknown: Vec::new(),
        }
    }

    /// Also checks each number read with `check`; a number it refuses is
    /// read as absent.
    pub fn with_number_check(mut self, check: NumberCheck) -> JsonReader<'a> {
        self.number_check = Some(check);
        self
    }

    /// The violations found: each field of the wrong type, in reading
    /// order, then (when the policy refuses them) each field no view asked
    /// for.
    pub fn finish(mut self) -> Vec<Violation> {
        self.refuse_unknown_fields();
        self.wrong.append(&mut self.unknown);
        self.wrong
    }

    fn path(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    fn wrong_type(&mut self, name: &str, message: &'static str) {
        let path = self.path(name);
        self.wrong
            .push(Violation::new(path, Rule::InvalidFormat, message));
    }

    /// The value of `name`, `None` when absent (or `null`, by the policy).
    fn get(&mut self, name: &'static str) -> Option<&'a Json> {
        self.asked.push(name);
        let value = self.current.get(name)?;
        match (value, self.policy.null) {
            (Json::Null, NullFields::Absent) => None,
            _ => Some(value),
        }
    }

    fn refuse_unknown_fields(&mut self) {
        if self.policy.unknown == UnknownFields::Ignore {
            return;
        }
        for name in self.current.keys() {
            if self.asked.contains(&name.as_str()) {
                continue;
            }
            let message = match nearest_name(name, self.asked.iter().copied()) {
                Some(near) => format!("is not a field of this request (did you mean {near}?)"),
                None => "is not a field of this request".to_owned(),
            };
            let path = self.path(name);
            self.unknown
                .push(Violation::new(path, Rule::UnknownField, message));
        }
    }

    fn descend<T>(
        &mut self,
        object: &'a Object,
        path: String,
        read: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let outer = std::mem::replace(&mut self.current, object);
        let outer_prefix = std::mem::replace(&mut self.prefix, format!("{path}."));
        let outer_asked = std::mem::take(&mut self.asked);
        let value = read(self);
        self.refuse_unknown_fields();
        self.current = outer;
        self.prefix = outer_prefix;
        self.asked = outer_asked;
        value
    }
}

impl<'a> FieldReader<'a> for JsonReader<'a> {
    fn text(&mut self, name: &'static str) -> Option<&'a str> {
        match self.get(name)? {
            Json::Text(text) => Some(text),
            _ => {
                self.wrong_type(name, STRING);
                None
            }
        }
    }

    fn number(&mut self, name: &'static str) -> Option<&'a str> {
        let Json::Number(number) = self.get(name)? else {
            self.wrong_type(name, NUMBER);
            return None;
        };
        let Some(value) = number.value() else {
            self.wrong_type(name, INEXACT);
            return None;
        };
        if let Some(check) = self.number_check {
            if let Err(violation) = check(&self.path(name), value) {
                self.wrong.push(violation);
                return None;
            }
        }
        Some(number.text())
    }

    fn flag(&mut self, name: &'static str) -> Option<bool> {
        match self.get(name)? {
            Json::Bool(value) => Some(*value),
            _ => {
                self.wrong_type(name, BOOLEAN);
                None
            }
        }
    }

    fn list(&mut self, name: &'static str) -> Option<Vec<&'a str>> {
        let texts = match self.get(name)? {
            Json::List(items) => items
                .iter()
                .map(|item| match item {
                    Json::Text(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect(),
            _ => None,
        };
        if texts.is_none() {
            self.wrong_type(name, STRINGS);
        }
        texts
    }

    fn object<T>(&mut self, name: &'static str, read: impl FnOnce(&mut Self) -> T) -> Option<T> {
        let Json::Object(object) = self.get(name)? else {
            self.wrong_type(name, OBJECT);
            return None;
        };
        let path = self.path(name);
        Some(self.descend(object, path, read))
    }

    fn map<T>(
        &mut self,
        name: &'static str,
        mut read: impl FnMut(&mut Self) -> T,
    ) -> Option<Vec<(&'a str, T)>> {
        let Json::Object(map) = self.get(name)? else {
            self.wrong_type(name, OBJECT);
            return None;
        };
        let mut entries = Vec::with_capacity(map.len());
        for (key, value) in map {
            let path = format!("{}.{key}", self.path(name));
            let object = match value {
                Json::Object(object) => object,
                _ => {
                    // The key was sent, so it counts (a required document is
                    // not also reported missing); its parts read as absent.
                    self.wrong
                        .push(Violation::new(path.clone(), Rule::InvalidFormat, OBJECT));
                    &EMPTY
                }
            };
            entries.push((key.as_str(), self.descend(object, path, &mut read)));
        }
        Some(entries)
    }
}
