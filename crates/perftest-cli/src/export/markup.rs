//! Escaping text for HTML and SVG, and the number formats the charts print.
//!
//! Reports are input that may come from anywhere, so every string taken from one (case names,
//! device and driver strings, reasons) goes through [`escape`] before it reaches markup.

/// Escapes `& < > " '` and replaces characters XML 1.0 does not allow (C0 controls other than
/// tab, newline and carriage return, and U+FFFE/U+FFFF) with U+FFFD, so the result is safe
/// as element text and as a quoted attribute value, in HTML and in XML.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A throughput in Gload/s with about three significant digits (`2084`, `39.4`, `3.28`).
pub(crate) fn gload(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// Writes the opening tag of an SVG image `width` x `height` pixels (one line).
pub(crate) fn svg_open(out: &mut String, width: f64, height: f64) -> std::fmt::Result {
    use std::fmt::Write;
    let (w, h) = (px(width), px(height));
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">"#
    )
}

/// A coordinate or length for SVG attributes: at most one decimal, never NaN or infinite.
pub(crate) fn px(value: f64) -> String {
    if value.is_finite() {
        let rounded = (value * 10.0).round() / 10.0;
        if rounded == rounded.trunc() {
            format!("{rounded:.0}")
        } else {
            format!("{rounded:.1}")
        }
    } else {
        "0".to_string()
    }
}

/// The width of `text` in the charts' monospace font at `font_px` (0.6 em per column; a wide
/// character takes two columns).
pub(crate) fn text_width(text: &str, font_px: f64) -> f64 {
    crate::output::printable::display_width(text) as f64 * font_px * 0.6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_controls() {
        assert_eq!(
            escape(r#"<script>alert("x" & 'y')</script>"#),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
        assert_eq!(
            escape("a\u{1}b\u{1b}[31m\tc\u{ffff}"),
            "a\u{fffd}b\u{fffd}[31m\tc\u{fffd}"
        );
        assert_eq!(escape("Buffer<R8>.Load"), "Buffer&lt;R8&gt;.Load");
    }

    #[test]
    fn numbers() {
        assert_eq!(gload(2084.13), "2084");
        assert_eq!(gload(39.44), "39.4");
        assert_eq!(gload(3.2768), "3.28");
        assert_eq!(px(12.0), "12");
        assert_eq!(px(12.34), "12.3");
        assert_eq!(px(f64::NAN), "0");
        assert_eq!(px(f64::INFINITY), "0");
        assert_eq!(text_width("abcde", 12.0), 36.0);
    }
}
