//! A macro for the closed string enumerations of the API (currencies, rails,
//! business types, document types and so on).
//!
//! Each enumeration is written once as a list of `Variant = "wire spelling"`
//! pairs; the macro derives everything that must agree with that list: `ALL`,
//! `as_str`, `Display`, serde (serialised as the wire string, deserialised
//! through the type's own `FromStr` so serde reports the API's own message)
//! and a JSON schema.

/// Declares a closed string enumeration of the API.
///
/// The type must implement `FromStr` by hand (usually with [`lookup`]); the
/// macro uses it for deserialisation.
macro_rules! wire_enum {
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
            serde::Serialize, schemars::JsonSchema,
        )]
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
