//! Text from reports and drivers made safe to print, and padding that works at any width.
//!
//! Case names, device strings and reasons can come from a report file, that is from anyone:
//! control characters in them (escape sequences, newlines, carriage returns) must never reach
//! a terminal or break a one-line table row. Every text output passes such strings through
//! [`printable`]. Padding is done by hand because `format!`'s width argument is limited (a
//! 65,536-character name made `{:<width$}` panic).

use std::borrow::Cow;
use std::path::Path;

/// Characters that change how the text around them reads without being seen: the
/// bidirectional controls (the "Trojan Source" trick: a name that reads differently from what
/// it is), zero-width characters, the word joiner and invisible operators, the byte-order mark
/// and the soft hyphen.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{180e}'
        | '\u{00ad}')
}

/// Whether `c` is written as an escape: control characters and [`is_invisible`] ones.
fn needs_escape(c: char) -> bool {
    c.is_control() || is_invisible(c)
}

/// `text` with every control character (C0, DEL and C1) and every invisible formatting
/// character (bidirectional controls, zero-width characters) written as a visible escape:
/// `\n`, `\r`, `\t`, `\u{1b}` or `\u{202e}`. Text without them is returned as is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else if is_invisible(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The most characters of a quoted value an error message shows.
pub const MAX_EXCERPT_CHARS: usize = 60;

/// `text` as an error message quotes it: its first [`MAX_EXCERPT_CHARS`] characters, control
/// and invisible characters escaped (so the message stays one line and no quoted text can
/// start a line of its own), and, when cut, `...` and the length of the whole. Every value an
/// error takes from a file (a line, a cell, a name) is quoted through this.
pub fn excerpt(text: &str) -> String {
    let mut cut = text.char_indices().map(|(i, _)| i);
    match cut.nth(MAX_EXCERPT_CHARS) {
        None => printable(text).into_owned(),
        Some(end) => format!(
            "{}... ({} bytes in all)",
            printable(&text[..end]),
            text.len()
        ),
    }
}

/// A path as shown in a message: control characters escaped (a file name may hold a newline).
pub fn printable_path(path: &Path) -> String {
    printable(&path.display().to_string()).into_owned()
}

/// The widest a table column is padded to: a longer cell is printed whole and sticks out of
/// its column, so that one long name (from a report file) cannot make every row that long.
pub const MAX_COLUMN_WIDTH: usize = 100;

/// The columns `text` takes on a terminal: a wide (East Asian) character counts two, a
/// combining mark none.
pub fn display_width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// The width `text` claims in a padded table column: its [`display_width`], at most
/// [`MAX_COLUMN_WIDTH`].
pub fn cell_width(text: &str) -> usize {
    display_width(text).min(MAX_COLUMN_WIDTH)
}

/// Appends `text` to `out`, then spaces up to `width` columns (left-aligned cell).
pub fn push_left(out: &mut String, text: &str, width: usize) {
    out.push_str(text);
    push_spaces(out, width.saturating_sub(display_width(text)));
}

/// Appends spaces up to `width` columns, then `text` (right-aligned cell).
pub fn push_right(out: &mut String, text: &str, width: usize) {
    push_spaces(out, width.saturating_sub(display_width(text)));
    out.push_str(text);
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Appends `text` wrapped at `width` columns at spaces, the first line after `first`, the
/// others after `rest` (a word longer than a line stays whole).
pub fn wrap(out: &mut String, text: &str, first: &str, rest: &str, width: usize) {
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ') {
        if !empty && display_width(&line) + 1 + display_width(word) > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_is_bounded_and_one_line() {
        assert_eq!(excerpt("a\nb"), "a\\nb");
        let long = "\u{e9}".repeat(1000);
        let shown = excerpt(&long);
        assert_eq!(
            shown.chars().filter(|&c| c == '\u{e9}').count(),
            MAX_EXCERPT_CHARS
        );
        assert!(shown.ends_with("... (2000 bytes in all)"), "{shown}");
        assert_eq!(
            excerpt(&long[..2 * MAX_EXCERPT_CHARS]).len(),
            2 * MAX_EXCERPT_CHARS
        );
    }

    #[test]
    fn lines_wrap_at_spaces_with_their_indent() {
        let mut out = String::new();
        let text = "word ".repeat(30);
        wrap(&mut out, text.trim(), "- ", "  ", 100);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.len() <= 100), "{out}");
        assert!(lines[0].starts_with("- word") && lines[1].starts_with("  word"));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(printable("Buffer<R8>.Load"), Cow::Borrowed(_)));
        assert_eq!(printable("a\nb"), "a\\nb");
        assert_eq!(printable("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(printable("tab\there\r"), "tab\\there\\r");
        assert_eq!(printable("del\u{7f} csi\u{9b}"), "del\\u{7f} csi\\u{9b}");
        assert_eq!(printable("ünïcödé ✓"), "ünïcödé ✓");
        // Trojan Source: a right-to-left override makes "txt.exe" read as "exe.txt".
        assert_eq!(printable("a\u{202e}txt.exe"), "a\\u{202e}txt.exe");
        assert_eq!(
            printable("zero\u{200b}width\u{feff}"),
            "zero\\u{200b}width\\u{feff}"
        );
        assert_eq!(
            printable("\u{2067}isolate\u{2069}"),
            "\\u{2067}isolate\\u{2069}"
        );
        for c in (0u32..0x110000).filter_map(char::from_u32) {
            let text = c.to_string();
            assert!(!printable(&text).chars().any(needs_escape), "{c:?}");
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

    #[test]
    fn wide_characters_take_two_columns() {
        let mut out = String::new();
        push_left(&mut out, "\u{6f22}\u{5b57} GPU", 10);
        out.push('|');
        push_right(&mut out, "e\u{301}", 3);
        assert_eq!(out, "\u{6f22}\u{5b57} GPU  |  e\u{301}");
        assert_eq!(cell_width("\u{6f22}\u{5b57} GPU"), 8);
    }
}
