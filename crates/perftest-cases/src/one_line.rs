//! Text quoted in a one-line message: control characters escaped.

/// `text` with its control characters escaped (`\n`, `\t`, `\u{1b}`), everything else kept
/// as it is (backslashes and quotes too), so a value quoted in a message cannot split it over
/// two lines or move the cursor.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(one_line("a\nb\t\u{1b}[2J"), "a\\nb\\t\\u{1b}[2J");
        assert_eq!(one_line("C:\\gpu's"), "C:\\gpu's");
    }
}
