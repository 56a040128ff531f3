//! One pass over a JSON body's text into a [`Json`] tree.
//!
//! `serde_json` reads a fraction through `f64` unless its
//! `arbitrary_precision` feature is on, and that feature would change every
//! `serde_json::Value` in a program that links this crate; so the body is
//! walked here, once, keeping each number's text. Only a body this walk
//! refuses goes through `serde_json`, so that its message is
//! `serde_json`'s own (`EOF while parsing an object at line 1 column 11`).

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::fmt;

use super::tree::{Json, Number, Object};

/// Why a body is not a JSON object the reader can read.
#[derive(Debug)]
pub enum ParseError {
    /// Empty, or a JSON value other than an object.
    NotAnObject,
    /// Not JSON; `serde_json`'s description of the first fault.
    Malformed(serde_json::Error),
    /// Objects and arrays nested deeper than the limit given.
    TooDeep {
        /// The limit: the top-level object is level 1.
        max_depth: usize,
    },
    /// A key given twice in one object (which of its values counts is up to
    /// each parser): the path of the first such key (`businessAddress.city`,
    /// `activities[0].a`).
    Repeated(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NotAnObject => f.write_str("must be a JSON object"),
            ParseError::Malformed(error) => write!(f, "is not JSON: {error}"),
            ParseError::TooDeep { max_depth } => {
                write!(f, "is nested deeper than {max_depth} levels")
            }
            ParseError::Repeated(path) => write!(f, "{path}: must appear only once"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses `bytes`, which must be one JSON object nesting objects and arrays
/// at most `max_depth` levels deep (the object itself is level 1), with no
/// key given twice in any object, in a single pass over the text.
///
/// ```
/// use crossborder_core::json::{parse_object, Json, ParseError};
///
/// let object = parse_object(br#"{"amount": 100.50, "tags": ["a"]}"#, 32).unwrap();
/// let Some(Json::Number(amount)) = object.get("amount") else { panic!() };
/// assert_eq!(amount.text(), "100.5");
///
/// let repeated = parse_object(br#"{"a": {"b": 1, "b": 2}}"#, 32).unwrap_err();
/// assert_eq!(repeated.to_string(), "a.b: must appear only once");
/// assert!(matches!(parse_object(b"[1]", 32), Err(ParseError::NotAnObject)));
/// assert!(matches!(parse_object(br#"{"a": [[1]]}"#, 2), Err(ParseError::TooDeep { max_depth: 2 })));
/// ```
pub fn parse_object(bytes: &[u8], max_depth: usize) -> Result<Object, ParseError> {
    let mut parser = Parser {
        bytes,
        at: 0,
        max_depth,
        path: String::new(),
        repeated: None,
    };
    match parser.document() {
        Ok(object) => match parser.repeated {
            Some(path) => Err(ParseError::Repeated(path)),
            None => Ok(object),
        },
        Err(Stop::TooDeep) => Err(ParseError::TooDeep { max_depth }),
        Err(Stop::Invalid) => Err(refusal(bytes, max_depth)),
    }
}

/// Why a body the walk refused is refused, in the order a reader meets the
/// faults: nothing at all, nesting past the limit anywhere, then what
/// `serde_json` says (a value other than an object, or its syntax error).
fn refusal(bytes: &[u8], max_depth: usize) -> ParseError {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return ParseError::NotAnObject;
    }
    if nests_deeper_than(bytes, max_depth) {
        return ParseError::TooDeep { max_depth };
    }
    // Values decoded, not skipped: skipping leaves a lone surrogate
    // (`"\ud800"`) unread.
    match serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(bytes) {
        Err(error) if error.classify() == serde_json::error::Category::Data => {
            ParseError::NotAnObject
        }
        Err(error) => ParseError::Malformed(error),
        Ok(_) => ParseError::Malformed(serde::de::Error::custom(
            "a value serde_json reads but this parser does not",
        )),
    }
}

/// Whether `bytes` open more than `max` objects or arrays at once (brackets
/// inside strings do not count), for a body that is also malformed.
fn nests_deeper_than(bytes: &[u8], max: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Why the walk stopped.
enum Stop {
    /// Not JSON, or not an object: [`refusal`] says which.
    Invalid,
    TooDeep,
}

struct Parser<'b> {
    bytes: &'b [u8],
    at: usize,
    max_depth: usize,
    /// The path of the value being read, for [`ParseError::Repeated`].
    path: String,
    repeated: Option<String>,
}

impl Parser<'_> {
    fn document(&mut self) -> Result<Object, Stop> {
        self.skip_whitespace();
        if self.peek() != Some(b'{') {
            return Err(Stop::Invalid);
        }
        let object = self.object(1)?;
        self.skip_whitespace();
        if self.at == self.bytes.len() {
            Ok(object)
        } else {
            Err(Stop::Invalid)
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// The value at `depth` (the top-level object's members are at 2).
    fn value(&mut self, depth: usize) -> Result<Json, Stop> {
        self.skip_whitespace();
        match self.peek() {
            Some(b'{') => Ok(Json::Object(self.object(depth)?)),
            Some(b'[') => self.list(depth),
            Some(b'"') => Ok(Json::Text(self.string()?)),
            Some(b't') => self.literal(b"true", Json::Bool(true)),
            Some(b'f') => self.literal(b"false", Json::Bool(false)),
            Some(b'n') => self.literal(b"null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(Stop::Invalid),
        }
    }

    /// Steps over the opening bracket of an object or list at `depth`
    /// (refused when nested deeper than allowed); true when the container
    /// is empty, its `close` bracket following at once.
    fn enter(&mut self, depth: usize, close: u8) -> Result<bool, Stop> {
        if depth > self.max_depth {
            return Err(Stop::TooDeep);
        }
        self.at += 1;
        self.skip_whitespace();
        Ok(self.eat(close))
    }

    /// After a member or an item: false after a `,` (another one follows),
    /// true after the container's `close` bracket; anything else is invalid.
    fn closes_after_item(&mut self, close: u8) -> Result<bool, Stop> {
        self.skip_whitespace();
        if self.eat(b',') {
            Ok(false)
        } else if self.eat(close) {
            Ok(true)
        } else {
            Err(Stop::Invalid)
        }
    }

    fn object(&mut self, depth: usize) -> Result<Object, Stop> {
        let mut object = BTreeMap::new();
        if self.enter(depth, b'}')? {
            return Ok(object);
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(Stop::Invalid);
            }
            let key = self.string()?;
            self.skip_whitespace();
            if !self.eat(b':') {
                return Err(Stop::Invalid);
            }
            let outer = self.path.len();
            if outer > 0 {
                self.path.push('.');
            }
            self.path.push_str(&key);
            let value = self.value(depth + 1)?;
            match object.entry(key) {
                Entry::Occupied(_) => {
                    if self.repeated.is_none() {
                        self.repeated = Some(self.path.clone());
                    }
                }
                Entry::Vacant(entry) => {
                    entry.insert(value);
                }
            }
            self.path.truncate(outer);
            if self.closes_after_item(b'}')? {
                return Ok(object);
            }
        }
    }

    fn list(&mut self, depth: usize) -> Result<Json, Stop> {
        let mut items = Vec::new();
        if self.enter(depth, b']')? {
            return Ok(Json::List(items));
        }
        loop {
            let outer = self.path.len();
            self.path.push('[');
            self.path.push_str(&items.len().to_string());
            self.path.push(']');
            items.push(self.value(depth + 1)?);
            self.path.truncate(outer);
            if self.closes_after_item(b']')? {
                return Ok(Json::List(items));
            }
        }
    }

    /// A string; escapes are left to `serde_json`, on the string alone.
    fn string(&mut self) -> Result<String, Stop> {
        let start = self.at;
        self.at += 1;
        let mut escaped = false;
        loop {
            let byte = self.peek().ok_or(Stop::Invalid)?;
            self.at += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.at += 1;
                }
                0..=0x1f => return Err(Stop::Invalid),
                _ => {}
            }
        }
        let quoted = self.bytes.get(start..self.at).ok_or(Stop::Invalid)?;
        if escaped {
            serde_json::from_slice(quoted).map_err(|_| Stop::Invalid)
        } else {
            let inner = &quoted[1..quoted.len() - 1];
            std::str::from_utf8(inner)
                .map(str::to_owned)
                .map_err(|_| Stop::Invalid)
        }
    }

    fn literal(&mut self, word: &[u8], value: Json) -> Result<Json, Stop> {
        if self.bytes[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(Stop::Invalid)
        }
    }

    /// A number, by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<Json, Stop> {
        let start = self.at;
        self.eat(b'-');
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(Stop::Invalid),
        }
        if self.eat(b'.') && !self.digits() {
            return Err(Stop::Invalid);
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if !self.digits() {
                return Err(Stop::Invalid);
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| Stop::Invalid)?;
        Ok(Json::Number(Number::from_json_text(text)))
    }

    /// Skips digits; whether there was one.
    fn digits(&mut self) -> bool {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at > start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Object, ParseError> {
        parse_object(text.as_bytes(), 32)
    }

    /// The walk reads what `serde_json` reads, and refuses what it refuses
    /// with `serde_json`'s message.
    #[test]
    fn the_walk_agrees_with_serde_json() {
        for text in [
            r#"{}"#,
            r#" { "a" : [ 1 , -2.5e+3 , 0.0 , true , false , null , "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00" ] } "#,
            r#"{"é": "naïve", "n": {"m": {}}, "l": [[], {}]}"#,
            r#"{"z": -0, "y": 1E2, "x": 1e-2}"#,
        ] {
            let object = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let serde: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(Json::Object(object), Json::from(&serde), "{text}");
        }
        for text in [
            r#"{"a": }"#,
            r#"{"a": 1,}"#,
            r#"{"a": 01}"#,
            r#"{"a": 1.}"#,
            r#"{"a": .5}"#,
            r#"{"a": 1e}"#,
            r#"{"a": tru}"#,
            r#"{"a": "x"#,
            "{\"a\": \"\u{1}\"}",
            r#"{"a": "\x"}"#,
            r#"{"a": "\ud800"}"#,
            r#"{a: 1}"#,
            r#"{"a": 1} x"#,
            r#"{"a" 1}"#,
            r#"{"a": [1 2]}"#,
        ] {
            let Err(ParseError::Malformed(error)) = parse(text) else {
                panic!("{text} was not refused as malformed");
            };
            let expected = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            assert_eq!(error.to_string(), expected.to_string(), "{text}");
        }
        for text in ["", "  ", "[]", "42", "\"x\"", "null"] {
            assert!(
                matches!(parse(text), Err(ParseError::NotAnObject)),
                "{text:?}"
            );
        }
        let invalid_utf8 = b"{\"a\": \"\xff\"}";
        assert!(matches!(
            parse_object(invalid_utf8, 32),
            Err(ParseError::Malformed(_))
        ));
    }

    #[test]
    fn a_repeated_key_is_named_by_its_path() {
        for (text, path) in [
            (r#"{"amount": "1", "amount": "1000000"}"#, "amount"),
            (r#"{"b": {"city": "Lekki", "city": "Ikeja"}}"#, "b.city"),
            (r#"{"activities": [{"a": 1, "a": 2}]}"#, "activities[0].a"),
        ] {
            let Err(ParseError::Repeated(found)) = parse(text) else {
                panic!("{text} was read");
            };
            assert_eq!(found, path);
        }
        // A syntax error later in the body wins over a repeat before it.
        assert!(matches!(
            parse(r#"{"a": 1, "a": 2, "b": }"#),
            Err(ParseError::Malformed(_))
        ));
    }

    #[test]
    fn nesting_is_bounded_even_in_a_malformed_body() {
        let deep = format!("{{\"x\":{}{}}}", "[".repeat(31), "]".repeat(31));
        assert!(parse(&deep).is_ok());
        let deeper = format!("{{\"x\":{}{}}}", "[".repeat(32), "]".repeat(32));
        assert!(matches!(
            parse(&deeper),
            Err(ParseError::TooDeep { max_depth: 32 })
        ));
        let unclosed = format!("{{\"x\":{}", "[".repeat(100_000));
        assert!(matches!(
            parse(&unclosed),
            Err(ParseError::TooDeep { max_depth: 32 })
        ));
        assert!(parse(&format!("{{\"x\":\"{}\"}}", "[{".repeat(100))).is_ok());
    }
}
