//! Whether the name an account resolves to is the name the payer expects
//! (ASSUMPTIONS B14).

/// True when `expected` and `resolved` name the same person or business:
/// their words are equal ignoring case, punctuation, spacing and word order.
/// Banks print names as `SURNAME, GIVEN` or `Given Surname`, so order and
/// punctuation carry no meaning; a missing or different word does, so it is
/// a mismatch (a payment to a namesake is the failure this guards against).
///
/// ```
/// use crossborder_core::payout::names_match;
///
/// assert!(names_match("Adaeze Okafor", "OKAFOR, ADAEZE"));
/// assert!(names_match("  Mary-Jane  O'Neil ", "O'NEIL MARY-JANE"));
/// assert!(!names_match("Adaeze Okafor", "ADAEZE NGOZI OKAFOR"));
/// assert!(!names_match("Ada Okafor", "ADAEZE OKAFOR"));
/// assert!(!names_match("", ""));
/// ```
pub fn names_match(expected: &str, resolved: &str) -> bool {
    let expected = words(expected);
    !expected.is_empty() && expected == words(resolved)
}

/// The words of a name, lower case, sorted; a word is a run of letters and
/// digits (so `Mary-Jane` and `O'Neil` are each one word either way they
/// are written, as long as both sides write them alike or without the mark).
fn words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = name
        .split(|c: char| c.is_whitespace() || c == ',' || c == '.')
        .map(|word| {
            word.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
        .collect();
    words.sort_unstable();
    words
}

#[cfg(test)]
mod tests {
    use super::names_match;

    #[test]
    fn the_policy() {
        let table = [
            ("ADAEZE OKAFOR", "ADAEZE OKAFOR", true),
            ("adaeze okafor", "ADAEZE OKAFOR", true),
            ("Okafor Adaeze", "ADAEZE OKAFOR", true),
            ("Okafor, Adaeze.", "ADAEZE  OKAFOR", true),
            ("Mary-Jane O'Neil", "MARYJANE ONEIL", true),
            ("Émile Zoé", "ÉMILE ZOÉ", true),
            ("Lagos Trading Ltd", "LAGOS TRADING LTD.", true),
            ("Adaeze Okafor", "ADAEZE OKAFOR-OBI", false),
            ("Adaeze Okafor", "ADAEZE", false),
            ("Adaeze Okafor", "CHIDI OKAFOR", false),
            ("Adaeze Adaeze Okafor", "ADAEZE OKAFOR", false),
            ("Emile Zoe", "ÉMILE ZOÉ", false),
            ("", "ADAEZE OKAFOR", false),
            (" , ", "", false),
        ];
        for (expected, resolved, matches) in table {
            assert_eq!(
                names_match(expected, resolved),
                matches,
                "{expected:?} vs {resolved:?}"
            );
        }
    }
}
