//! A readable unified diff for `--check` failures.

use similar::TextDiff;

/// At most this many diff lines are printed; the rest is summarised.
const MAX_LINES: usize = 400;

/// Unified diff of `old` -> `new` with 3 lines of context, truncated to
/// [`MAX_LINES`] lines.
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    let full = TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string();
    let total = full.lines().count();
    if total <= MAX_LINES {
        return full;
    }
    let mut out: String = full
        .lines()
        .take(MAX_LINES)
        .flat_map(|l| [l, "\n"])
        .collect();
    out.push_str(&format!("... ({} more diff lines)\n", total - MAX_LINES));
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn shows_changed_lines() {
        let d = unified("a\nb\n", "a\nc\n", "old", "new");
        assert!(d.contains("-b") && d.contains("+c"), "{d}");
    }

    #[test]
    fn truncates_long_diffs() {
        let old: String = (0..1000).map(|i| format!("{i}\n")).collect();
        let d = unified(&old, "", "old", "new");
        assert!(d.contains("more diff lines"), "{d}");
    }
}
