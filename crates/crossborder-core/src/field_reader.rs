//! How a request body becomes a view: the generated views (`views.rs`) ask a
//! [`FieldReader`] for each of their fields by wire name and kind, so the
//! sandbox (reading JSON), the CLI (reading files) and tests each write one
//! reader, never a field list.

/// A source of a request's fields, read by the generated `read`
/// constructors of the views (`PayoutFields::read`, `BusinessFields::read`...).
///
/// Each method returns `None` for an absent field. A reader that finds a
/// value of the wrong kind also returns `None` and may record why (the
/// sandbox records a `must be a string` violation), so a view holds only
/// what could be read and the rules report what is missing.
///
/// ```
/// use crossborder_core::payout::PayoutFields;
/// use crossborder_core::FieldReader;
///
/// /// Every field reads as its own wire name; nothing else is present.
/// struct Names;
///
/// impl<'a> FieldReader<'a> for Names {
///     fn text(&mut self, name: &'static str) -> Option<&'a str> { Some(name) }
///     fn number(&mut self, _: &'static str) -> Option<&'a str> { None }
///     fn flag(&mut self, _: &'static str) -> Option<bool> { None }
///     fn list(&mut self, _: &'static str) -> Option<Vec<&'a str>> { None }
///     fn object<T>(&mut self, _: &'static str, _: impl FnOnce(&mut Self) -> T) -> Option<T> { None }
///     fn map<T>(&mut self, _: &'static str, _: impl FnMut(&mut Self) -> T) -> Option<Vec<(&'a str, T)>> { None }
/// }
///
/// let fields = PayoutFields::read(&mut Names);
/// assert_eq!(fields.sort_code, Some("sortCode"));
/// ```
pub trait FieldReader<'a> {
    /// A string field.
    fn text(&mut self, name: &'static str) -> Option<&'a str>;
    /// A JSON number field, as its exact decimal text (never through `f64`).
    fn number(&mut self, name: &'static str) -> Option<&'a str>;
    /// A boolean field.
    fn flag(&mut self, name: &'static str) -> Option<bool>;
    /// An array of strings.
    fn list(&mut self, name: &'static str) -> Option<Vec<&'a str>>;
    /// A nested object: the reader steps into it, `read` reads its fields,
    /// and the reader steps back out.
    fn object<T>(&mut self, name: &'static str, read: impl FnOnce(&mut Self) -> T) -> Option<T>
    where
        Self: Sized;
    /// A map of keys to objects: `read` reads each value in turn, in the
    /// order sent.
    fn map<T>(
        &mut self,
        name: &'static str,
        read: impl FnMut(&mut Self) -> T,
    ) -> Option<Vec<(&'a str, T)>>
    where
        Self: Sized;
}
