//! The seed of a schedule: random unless an environment variable gives it,
//! and always printed, so that any run can be replayed.

/// The seed named by the environment variable `variable` (a decimal `u64`),
/// or a random one; printed either way with the line that replays it.
///
/// # Panics
///
/// When the variable is set to something other than a decimal `u64`.
pub fn seed(variable: &str) -> u64 {
    let seed = match std::env::var(variable) {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{variable}={text:?} is not a seed (a decimal u64)")),
        Err(_) => fastrand::u64(..),
    };
    println!("seed {seed}; replay with {variable}={seed}");
    seed
}
