//! Text from reports and drivers made safe to print, and padding that works at any width.
//!
//! Case names, device strings and reasons can come from a report file, that is from anyone:
//! control characters in them (escape sequences, newlines, carriage returns) must never reach
//! a terminal or break a one-line table row. Every text output passes such strings through
//! [`printable`]. Padding is done by hand because `format!`'s width argument is limited (a
//! 65,536-character name made `{:<width$}` panic).

use std::borrow::Cow;
use std::path::Path;

/// `text` with every control character (C0, DEL and C1) written as a visible escape: `\n`,
/// `\r`, `\t`, or `\u{1b}`. Text without control characters is returned as is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A path as shown in a message: control characters escaped (a file name may hold a newline).
pub fn printable_path(path: &Path) -> String {
    printable(&path.display().to_string()).into_owned()
}

/// Appends `text` to `out`, then spaces up to `width` characters (left-aligned cell).
pub fn push_left(out: &mut String, text: &str, width: usize) {
    out.push_str(text);
    push_spaces(out, width.saturating_sub(text.chars().count()));
}

/// Appends spaces up to `width` characters, then `text` (right-aligned cell).
pub fn push_right(out: &mut String, text: &str, width: usize) {
    push_spaces(out, width.saturating_sub(text.chars().count()));
    out.push_str(text);
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(printable("Buffer<R8>.Load"), Cow::Borrowed(_)));
        assert_eq!(printable("a\nb"), "a\\nb");
        assert_eq!(printable("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(printable("tab\there\r"), "tab\\there\\r");
        assert_eq!(printable("del\u{7f} csi\u{9b}"), "del\\u{7f} csi\\u{9b}");
        assert_eq!(printable("ünïcödé ✓"), "ünïcödé ✓");
        for c in (0u32..0x110000).filter_map(char::from_u32) {
            let text = c.to_string();
            assert!(!printable(&text).chars().any(char::is_control), "{c:?}");
        }
    }

    #[test]
    fn padding_works_at_any_width() {
        let mut out = String::new();
        push_left(&mut out, "ab", 4);
        out.push('|');
        push_right(&mut out, "cd", 4);
        out.push('|');
        push_left(&mut out, "toolong", 3);
        assert_eq!(out, "ab  |  cd|toolong");
        let huge = "x".repeat(70_000);
        let mut out = String::new();
        push_left(&mut out, "y", huge.len());
        push_right(&mut out, &huge, huge.len() + 1);
        assert_eq!(out.len(), 2 * huge.len() + 1);
    }
}
