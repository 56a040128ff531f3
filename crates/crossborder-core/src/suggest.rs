//! "Did you mean ...?": the known name nearest to a mistyped one, by edit
//! distance, for the messages that refuse an unknown document key (A22)
//! or an unknown field of a JSON body (C17).

use std::borrow::Cow;

/// The most edits a name may be from a known name to be taken for a typo
/// of it: a third of its length, at least 1 and at most 3.
pub fn typo_limit(name: &str) -> usize {
    (name.chars().count() / 3).clamp(1, 3)
}

/// The candidate nearest to `name` (edit distance ignoring case, with a
/// swap of two neighbouring letters counted as one edit, the commonest
/// typo: optimal string alignment), when it is within [`typo_limit`]
/// edits; the first of equally near candidates wins.
///
/// ```
/// use crossborder_core::suggest::nearest_name;
///
/// let fields = ["businessAddress", "hasWebsite", "businessType"];
/// assert_eq!(nearest_name("businessAdress", fields), Some("businessAddress"));
/// assert_eq!(nearest_name("BusinessTpye", fields), Some("businessType"));
/// assert_eq!(nearest_name("kye", ["url", "key"]), Some("key"));
/// assert_eq!(nearest_name("colour", fields), None);
/// ```
pub fn nearest_name<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    nearest(
        &name.to_lowercase(),
        candidates
            .into_iter()
            .map(|candidate| (candidate, Cow::Owned(candidate.to_lowercase()))),
        strsim::osa_distance,
    )
}

/// The `shown` name of the candidate whose `compared` form is nearest to
/// `name` by `distance`, within [`typo_limit`] edits of it; the first of
/// equally near candidates wins. A candidate whose length alone puts it
/// further away (an edit distance is at least the difference in length) is
/// not compared at all, so thousands of long unknown names cost a length
/// check each.
pub(crate) fn nearest<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = (&'c str, Cow<'c, str>)>,
    distance: fn(&str, &str) -> usize,
) -> Option<&'c str> {
    let limit = typo_limit(name);
    let length = name.chars().count();
    candidates
        .into_iter()
        .filter(|(_, compared)| compared.chars().count().abs_diff(length) <= limit)
        .map(|(shown, compared)| (distance(name, &compared), shown))
        .filter(|(distance, _)| *distance <= limit)
        // min_by_key keeps the first of equal distances.
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, shown)| shown)
}
