//! Deterministic garbage: the same seed always gives the same bytes, so a
//! failure names an input that can be sent again.

/// `len` pseudo-random bytes from `seed` (SplitMix64).
pub fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut bytes = Vec::with_capacity(len + 8);
    while bytes.len() < len {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        bytes.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

/// An HTML error page, as a proxy or a load balancer sends one.
pub const HTML_PAGE: &str = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n";

/// `levels` nested arrays: `[[[...]]]`.
pub fn nested_arrays(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

/// `levels` nested objects: `{"a":{"a":...1...}}`.
pub fn nested_objects(levels: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(levels), "}".repeat(levels))
}
