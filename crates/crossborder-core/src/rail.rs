//! Settlement rails, accepted as an optional pin on a quote. Spelled in
//! lowercase on the wire, exactly as the specification lists them.
//!
//! ```
//! use crossborder_core::Rail;
//!
//! assert_eq!("bridge_wallet".parse::<Rail>().unwrap(), Rail::BridgeWallet);
//! assert_eq!(Rail::Wire.to_string(), "wire");
//! ```

pub use crate::enums::{Rail, UnknownRail};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rail_round_trips() {
        let wire = [
            "ach",
            "iban",
            "swift",
            "wire",
            "pix",
            "ethereum",
            "bridge_wallet",
            "nip",
        ];
        assert_eq!(Rail::ALL.map(Rail::as_str), wire);
        for rail in Rail::ALL {
            assert_eq!(rail.to_string().parse::<Rail>(), Ok(rail));
            let json = serde_json::to_string(&rail).unwrap();
            assert_eq!(json, format!("\"{rail}\""));
            assert_eq!(serde_json::from_str::<Rail>(&json).unwrap(), rail);
        }
    }

    #[test]
    fn unknown_rail_lists_the_choices() {
        assert_eq!(
            "WIRE".parse::<Rail>().unwrap_err().to_string(),
            "Invalid rail: WIRE (expected one of ach, iban, swift, wire, pix, ethereum, bridge_wallet, nip)"
        );
    }
}
