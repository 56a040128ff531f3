//! Unpredictable identifiers: rate keys, memos, transaction, business,
//! person and document ids.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// Generates unpredictable identifiers without an extra dependency: a
/// counter hashed with SipHash under a key the standard library draws from
/// the operating system's randomness.
///
/// Callers that need uniqueness within a map check for a collision and draw
/// again (64 bits per draw make one vanishingly rare).
#[derive(Debug, Default)]
pub(crate) struct IdGenerator {
    keys: RandomState,
    counter: AtomicU64,
}

const UPPER_ALPHANUMERIC: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

impl IdGenerator {
    /// 64 unpredictable bits.
    fn next_u64(&self) -> u64 {
        let mut hasher = self.keys.build_hasher();
        hasher.write_u64(self.counter.fetch_add(1, Ordering::Relaxed));
        hasher.finish()
    }

    /// `len` lowercase hexadecimal digits.
    pub(crate) fn hex(&self, len: usize) -> String {
        let mut text = String::with_capacity(len + 16);
        while text.len() < len {
            text.push_str(&format!("{:016x}", self.next_u64()));
        }
        text.truncate(len);
        text
    }

    /// `len` characters from `0-9A-Z`.
    pub(crate) fn upper_alphanumeric(&self, len: usize) -> String {
        let mut text = String::with_capacity(len);
        let mut bits = self.next_u64();
        let mut left = 12; // 36^12 < 2^64: twelve digits per draw
        while text.len() < len {
            if left == 0 {
                bits = self.next_u64();
                left = 12;
            }
            // The index is below 36, so the conversion cannot truncate.
            let index = (bits % 36) as usize;
            text.push(char::from(UPPER_ALPHANUMERIC[index]));
            bits /= 36;
            left -= 1;
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_have_the_requested_shape_and_differ() {
        let ids = IdGenerator::default();
        let hex = ids.hex(16);
        assert_eq!(hex.len(), 16);
        assert!(hex
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        let memo = ids.upper_alphanumeric(8);
        assert_eq!(memo.len(), 8);
        assert!(memo
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()));
        let many: HashSet<String> = (0..1000).map(|_| ids.upper_alphanumeric(8)).collect();
        assert_eq!(many.len(), 1000);
    }
}
