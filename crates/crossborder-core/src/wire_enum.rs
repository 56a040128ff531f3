//! A macro for the string enumerations of the API: closed ones (currencies,
//! rails, business types, document types and so on) and open ones (statuses,
//! roles), whose `Unknown` variant keeps a value this version does not know.
//!
//! Each enumeration is written once as a list of `Variant = "wire spelling"`
//! pairs (the spec's, by `cargo xtask codegen` into `enums.rs`; the document
//! types, which the spec does not list, by hand in `kyb/documents.rs`); the
//! macro derives everything that must agree with that list. For a closed one:
//! `ALL`, `as_str`, `Display`, serde (serialised as the wire string,
//! deserialised through the type's own `FromStr` so serde reports the API's
//! own message), a JSON schema and, for most types, `FromStr` and its error
//! type. For an open one: `as_str` and an infallible `FromStr`.

/// Declares a string enumeration of the API, closed unless it ends with
/// `Unknown(String);`.
///
/// Followed by a `pub struct UnknownX(pub String);` declaration (with its own
/// doc comment and `#[error("...")]` message), the macro also declares that
/// error type and implements `FromStr` as an exact, case-sensitive match of
/// the wire spellings that fails with it. Without one, the type must
/// implement `FromStr` by hand (a type that accepts aliases, say); the macro
/// uses it for deserialisation either way.
///
/// Followed by `Unknown(String);` instead, the enumeration is open: the
/// variant keeps any other text, `as_str` gives it back as sent and `FromStr`
/// never fails.
///
/// A private macro, so the example is shown, not run (`enums.rs` holds the
/// same declaration, compiled):
///
/// ```text
/// wire_enum! {
///     /// A settlement rail.
///     pub enum Rail {
///         /// US Automated Clearing House.
///         Ach = "ach",
///         /// IBAN (SEPA) transfer.
///         Iban = "iban",
///     }
///
///     /// A rail name that is not one of the supported rails.
///     #[error("Invalid rail: {0}")]
///     pub struct UnknownRail(pub String);
/// }
/// ```
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $wire:literal,
            )+
        }

        $(#[$unknown_meta:meta])*
        Unknown(String);
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                $(#[$vmeta])*
                $variant,
            )+
            $(#[$unknown_meta])*
            Unknown(String),
        }

        impl $name {
            /// The wire spelling (an unknown value as sent).
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $wire,)+
                    $name::Unknown(other) => other,
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::convert::Infallible;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Ok(match text {
                    $($wire => $name::$variant,)+
                    other => $name::Unknown(other.to_owned()),
                })
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $wire:literal,
            )+
        }

        $(#[$error_meta:meta])*
        pub struct $error:ident(pub String);
    ) => {
        $crate::wire_enum::wire_enum! {
            $(#[$meta])*
            pub enum $name {
                $(
                    $(#[$vmeta])*
                    $variant = $wire,
                )+
            }
        }

        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        $(#[$error_meta])*
        pub struct $error(pub String);

        impl std::str::FromStr for $name {
            type Err = $error;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                $crate::wire_enum::lookup(&$name::ALL, $name::as_str, text)
                    .ok_or_else(|| $error(text.to_owned()))
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $wire:literal,
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash,
            serde::Serialize,
        )]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        pub enum $name {
            $(
                $(#[$vmeta])*
                #[serde(rename = $wire)]
                $variant,
            )+
        }

        impl $name {
            /// Every value, in the order the specification lists them.
            pub const ALL: [$name; [$($wire),+].len()] = [$($name::$variant),+];

            /// The exact spelling used on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct WireVisitor;

                impl serde::de::Visitor<'_> for WireVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " string"))
                    }

                    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<$name, E> {
                        value.parse::<$name>().map_err(E::custom)
                    }
                }

                deserializer.deserialize_str(WireVisitor)
            }
        }

        // The generated low-level client uses these types directly, and its
        // builders take any `TryInto<$name>`: parsing stays `FromStr`'s.
        impl TryFrom<&str> for $name {
            type Error = <$name as std::str::FromStr>::Err;

            fn try_from(text: &str) -> Result<Self, Self::Error> {
                text.parse()
            }
        }

        impl TryFrom<&String> for $name {
            type Error = <$name as std::str::FromStr>::Err;

            fn try_from(text: &String) -> Result<Self, Self::Error> {
                text.parse()
            }
        }

        impl TryFrom<String> for $name {
            type Error = <$name as std::str::FromStr>::Err;

            fn try_from(text: String) -> Result<Self, Self::Error> {
                text.parse()
            }
        }
    };
}

pub(crate) use wire_enum;

/// Finds the value whose wire spelling is exactly `text` (case-sensitive).
pub(crate) fn lookup<T: Copy>(all: &[T], as_str: fn(T) -> &'static str, text: &str) -> Option<T> {
    all.iter().copied().find(|value| as_str(*value) == text)
}

/// Joins wire spellings as `A, B, C`, for "must be one of ..." messages.
pub(crate) fn one_of<T: Copy>(all: &[T], as_str: fn(T) -> &'static str) -> String {
    all.iter()
        .map(|value| as_str(*value))
        .collect::<Vec<_>>()
        .join(", ")
}
