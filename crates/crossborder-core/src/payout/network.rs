//! Crypto networks and the shape of a wallet address on each.
//!
//! The specification names no network (its quote rails include `ethereum`);
//! this crate knows the names below, matched case-insensitively, and checks
//! an address against the family of its network (ASSUMPTIONS C11). A network
//! it does not know is still accepted, sent as given, and its address is
//! only checked for being one word: the service may support more networks
//! than this crate lists, and refusing them would block valid payouts.

use tiny_keccak::{Hasher, Keccak};

use super::FormatError;
use crate::violation::Rule;

/// How the addresses of a network are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressFamily {
    /// Ethereum and EVM-compatible chains: `0x` and 40 hexadecimal digits,
    /// with the EIP-55 checksum when written in mixed case.
    Evm,
    /// TRON: base58check of 25 bytes (`0x41`, the 20-byte account, a 4-byte
    /// checksum), 34 characters starting with `T`.
    Tron,
    /// Solana: base58 of a 32-byte public key.
    Solana,
}

/// The network names this crate knows, each with its address family: the
/// chains' own names and the token-standard names payment providers use for
/// them (`erc20`, `bep20`, `trc20`, `spl`).
pub const KNOWN_NETWORKS: [(&str, AddressFamily); 16] = [
    ("ethereum", AddressFamily::Evm),
    ("erc20", AddressFamily::Evm),
    ("bsc", AddressFamily::Evm),
    ("bep20", AddressFamily::Evm),
    ("polygon", AddressFamily::Evm),
    ("base", AddressFamily::Evm),
    ("arbitrum", AddressFamily::Evm),
    ("optimism", AddressFamily::Evm),
    ("avalanche", AddressFamily::Evm),
    ("celo", AddressFamily::Evm),
    ("tron", AddressFamily::Tron),
    ("trc20", AddressFamily::Tron),
    ("solana", AddressFamily::Solana),
    ("spl", AddressFamily::Solana),
    ("sol", AddressFamily::Solana),
    ("eth", AddressFamily::Evm),
];

/// The address family of a network name, when this crate knows it.
///
/// ```
/// use crossborder_core::payout::{address_family, AddressFamily};
///
/// assert_eq!(address_family("ethereum"), Some(AddressFamily::Evm));
/// assert_eq!(address_family("TRC20"), Some(AddressFamily::Tron));
/// assert_eq!(address_family("lightning"), None);
/// ```
pub fn address_family(network: &str) -> Option<AddressFamily> {
    KNOWN_NETWORKS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(network))
        .map(|&(_, family)| family)
}

/// Why an address does not fit its network: the rule it breaks (a wrong
/// checksum is [`Rule::InvalidChecksum`], any other misfit
/// [`Rule::InvalidFormat`]) and the message of the violation, phrased to
/// follow the field name.
pub(crate) fn check_address(address: &str, network: Option<&str>) -> Result<(), FormatError> {
    if address.chars().any(char::is_whitespace) {
        return Err((
            Rule::InvalidFormat,
            "must be one word without whitespace, as the wallet shows it".to_owned(),
        ));
    }
    let Some((network, family)) = network.and_then(|n| Some((n, address_family(n)?))) else {
        return Ok(());
    };
    match family {
        AddressFamily::Evm => check_evm(address, network),
        AddressFamily::Tron => check_tron(address, network),
        AddressFamily::Solana => check_solana(address, network),
    }
}

fn check_evm(address: &str, network: &str) -> Result<(), FormatError> {
    let hex = address
        .strip_prefix("0x")
        .filter(|hex| hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            (
                Rule::InvalidFormat,
                format!(
                    "must be an address on {network}: 0x followed by 40 hexadecimal digits, \
                     such as 0x52908400098527886E0F7030069857D2E4169EE7"
                ),
            )
        })?;
    let lower = hex.bytes().any(|b| b.is_ascii_lowercase());
    let upper = hex.bytes().any(|b| b.is_ascii_uppercase());
    if lower && upper && !eip55_matches(hex) {
        return Err((
            Rule::InvalidChecksum,
            format!(
                "has a wrong EIP-55 checksum for {network}: the mixed-case letters do not \
                 match the address (check it was copied whole, or write it all in lower \
                 case); a valid one looks like 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
            ),
        ));
    }
    Ok(())
}

/// EIP-55: a letter is upper case exactly when the matching nibble of the
/// Keccak-256 hash of the lower-case hex address is 8 or more.
fn eip55_matches(hex: &str) -> bool {
    let lower = hex.to_ascii_lowercase();
    let mut hash = [0u8; 32];
    let mut keccak = Keccak::v256();
    keccak.update(lower.as_bytes());
    keccak.finalize(&mut hash);
    hex.bytes().enumerate().all(|(i, b)| {
        let nibble = (hash[i / 2] >> if i % 2 == 0 { 4 } else { 0 }) & 0x0f;
        !b.is_ascii_alphabetic() || b.is_ascii_uppercase() == (nibble >= 8)
    })
}

fn check_tron(address: &str, network: &str) -> Result<(), FormatError> {
    let shape = || {
        (
            Rule::InvalidFormat,
            format!(
                "must be an address on {network}: base58check, 34 characters starting with T, \
                 such as TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"
            ),
        )
    };
    if address.len() != 34 || !address.starts_with('T') {
        return Err(shape());
    }
    let Ok(bytes) = bs58::decode(address).into_vec() else {
        return Err(shape());
    };
    let Some((payload, checksum)) = bytes.split_last_chunk::<4>() else {
        return Err(shape());
    };
    if !base58check_matches(payload, checksum) {
        return Err((
            Rule::InvalidChecksum,
            format!(
                "has a wrong base58check checksum for {network} (check it was copied whole); \
                 a valid one looks like TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"
            ),
        ));
    }
    match payload {
        [0x41, account @ ..] if account.len() == 20 => Ok(()),
        _ => Err(shape()),
    }
}

/// base58check: the last four bytes are the first four of the double
/// SHA-256 of the rest.
fn base58check_matches(payload: &[u8], checksum: &[u8; 4]) -> bool {
    let digest = hmac_sha256::Hash::hash(&hmac_sha256::Hash::hash(payload));
    digest[..4] == checksum[..]
}

fn check_solana(address: &str, network: &str) -> Result<(), FormatError> {
    match bs58::decode(address).into_vec() {
        Ok(bytes) if bytes.len() == 32 => Ok(()),
        _ => Err((
            Rule::InvalidFormat,
            format!(
                "must be an address on {network}: base58 of a 32-byte public key, \
                 such as 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of `addresses` is refused on `network` with the shape message
    /// `shape` (not a checksum message: these are not addresses at all).
    fn assert_malformed(network: &str, shape: &str, addresses: &[&str]) {
        for address in addresses {
            assert_eq!(
                check_address(address, Some(network)),
                Err((Rule::InvalidFormat, shape.to_owned())),
                "{address} on {network}"
            );
        }
    }

    #[test]
    fn every_known_network_has_one_family_and_no_duplicate_name() {
        for (i, (name, _)) in KNOWN_NETWORKS.iter().enumerate() {
            assert_eq!(name.to_ascii_lowercase(), *name);
            assert!(!KNOWN_NETWORKS[i + 1..].iter().any(|(n, _)| n == name));
        }
    }

    /// ASSUMPTIONS B12: the names the SDK knows, in any case, and the
    /// address family of each; any other name has none.
    #[test]
    fn the_known_networks_and_their_families() {
        let evm = [
            "ethereum",
            "eth",
            "erc20",
            "bsc",
            "bep20",
            "polygon",
            "base",
            "arbitrum",
            "optimism",
            "avalanche",
            "celo",
        ];
        let table = evm
            .map(|name| (name, AddressFamily::Evm))
            .into_iter()
            .chain([
                ("tron", AddressFamily::Tron),
                ("trc20", AddressFamily::Tron),
            ])
            .chain(["solana", "sol", "spl"].map(|name| (name, AddressFamily::Solana)));
        let mut named = 0;
        for (name, family) in table {
            assert_eq!(address_family(name), Some(family), "{name}");
            let upper = name.to_ascii_uppercase();
            assert_eq!(address_family(&upper), Some(family), "{upper}");
            named += 1;
        }
        assert_eq!(named, KNOWN_NETWORKS.len());
        for other in ["lightning", "bitcoin", "eth mainnet", ""] {
            assert_eq!(address_family(other), None, "{other}");
        }
    }

    #[test]
    fn evm_addresses() {
        // The EIP-55 test vectors.
        for address in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            assert_eq!(check_address(address, Some("ethereum")), Ok(()));
            // All lower case (or all upper case) carries no checksum.
            let lower = format!("0x{}", address[2..].to_ascii_lowercase());
            assert_eq!(check_address(&lower, Some("bsc")), Ok(()));
            let upper = format!("0x{}", address[2..].to_ascii_uppercase());
            assert_eq!(check_address(&upper, Some("polygon")), Ok(()));
        }
        assert_eq!(
            check_address(
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
                Some("ethereum")
            ),
            Err((
                Rule::InvalidChecksum,
                "has a wrong EIP-55 checksum for ethereum: the mixed-case letters do not \
                 match the address (check it was copied whole, or write it all in lower \
                 case); a valid one looks like 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
                    .to_owned()
            ))
        );
        let shape = "must be an address on Ethereum: 0x followed by 40 hexadecimal digits, \
                     such as 0x52908400098527886E0F7030069857D2E4169EE7";
        assert_malformed(
            "Ethereum",
            shape,
            &[
                "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd",
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg",
                "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            ],
        );
    }

    #[test]
    fn tron_addresses() {
        assert_eq!(
            check_address("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", Some("tron")),
            Ok(())
        );
        assert_eq!(
            check_address("TJRabPrwbZy45sbavfcjinPJC18kjpRTv9", Some("trc20")),
            Err((
                Rule::InvalidChecksum,
                "has a wrong base58check checksum for trc20 (check it was copied whole); \
                 a valid one looks like TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"
                    .to_owned()
            ))
        );
        let shape = "must be an address on tron: base58check, 34 characters starting with T, \
                     such as TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
        assert_malformed(
            "tron",
            shape,
            &[
                "TJRabPrwbZy45sbavfcjinPJC18kjpRTv",
                "AJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
                "TJRabPrwbZy45sbavfcjinPJC18kjpRT0l",
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            ],
        );
    }

    /// The two digests are Keccak-256 (Ethereum's, not SHA3-256) and
    /// SHA-256, on their published vectors.
    #[test]
    fn the_digests_are_keccak_256_and_double_sha_256() {
        let mut hash = [0u8; 32];
        let mut keccak = Keccak::v256();
        keccak.update(b"");
        keccak.finalize(&mut hash);
        assert_eq!(
            hex(&hash),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
        assert_eq!(
            hex(&hmac_sha256::Hash::hash(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        // base58check of TJRabPrwbZy45sbavfcjinPJC18kjpRTv8: 0x41, the
        // account, then the first four bytes of SHA-256(SHA-256(those 21)).
        let bytes = bs58::decode("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8")
            .into_vec()
            .unwrap();
        let (payload, checksum) = bytes.split_last_chunk::<4>().unwrap();
        assert!(base58check_matches(payload, checksum));
        let mut wrong = *checksum;
        wrong[3] ^= 1;
        assert!(!base58check_matches(payload, &wrong));
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn solana_addresses() {
        for good in [
            "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
            "11111111111111111111111111111111",
        ] {
            assert_eq!(check_address(good, Some("solana")), Ok(()), "{good}");
        }
        let shape = "must be an address on SOL: base58 of a 32-byte public key, \
                     such as 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
        assert_malformed(
            "SOL",
            shape,
            &["7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFL", "0OIl", "abc"],
        );
    }

    #[test]
    fn an_unknown_or_absent_network_only_refuses_whitespace() {
        for network in [None, Some("lightning")] {
            assert_eq!(check_address("anything-goes_1", network), Ok(()));
            assert_eq!(
                check_address("two words", network),
                Err((
                    Rule::InvalidFormat,
                    "must be one word without whitespace, as the wallet shows it".to_owned()
                ))
            );
        }
    }
}
