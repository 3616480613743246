//! Windows' reserved device names, as a pure rule over the path's text (so that it is
//! unit-tested on every platform, though only the Windows module uses it).

/// The names Win32 maps to devices in any directory, with or without an extension:
/// `CON`, `PRN`, `AUX`, `NUL`, `COM0`-`COM9`, `LPT0`-`LPT9` (and the superscript-digit forms),
/// `CONIN$`, `CONOUT$`.
const RESERVED: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];

/// Whether `path` names a Windows device: a path in the device namespace (`\\.\PIPE\x`,
/// `\\?\GLOBALROOT\...`, `//./COM1`) or a last component that is a reserved name, ignoring
/// case, an extension and trailing dots and spaces (`nul`, `NUL.txt`, `C:\out\con `).
pub fn names_windows_device(path: &str) -> bool {
    let slashed = path.replace('\\', "/");
    if slashed.starts_with("//./") || slashed.to_ascii_uppercase().starts_with("//?/GLOBALROOT/") {
        return true;
    }
    let last = slashed.rsplit('/').next().unwrap_or_default();
    // `C:NUL` names the device too.
    let last = match last.as_bytes() {
        [drive, b':', ..] if drive.is_ascii_alphabetic() => &last[2..],
        _ => last,
    };
    let stem = last.split('.').next().unwrap_or_default();
    let stem = stem.trim_end_matches([' ', '.']).to_ascii_uppercase();
    if RESERVED.contains(&stem.as_str()) {
        return true;
    }
    match stem
        .strip_prefix("COM")
        .or_else(|| stem.strip_prefix("LPT"))
    {
        Some(n) => matches!(
            n,
            "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "¹" | "²" | "³"
        ),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_in_any_spelling() {
        for path in [
            "NUL",
            "nul",
            "NUL.json",
            "nul .txt",
            "C:\\reports\\CON",
            "C:/reports/aux.csv",
            "C:NUL",
            "com1",
            "LPT9.log",
            "COM³",
            "conout$",
            "\\\\.\\PIPE\\perftest",
            "//./COM1",
            "\\\\?\\GLOBALROOT\\Device\\Null",
        ] {
            assert!(names_windows_device(path), "{path}");
        }
    }

    #[test]
    fn ordinary_files_are_not_devices() {
        for path in [
            "report.json",
            "C:\\Users\\me\\My Reports\\nul-run.json",
            "console.txt",
            "COM10",
            "LPT",
            "\\\\?\\C:\\long\\path\\out.json",
            "\\\\server\\share\\out.json",
            "NULL",
            "auxiliary.csv",
        ] {
            assert!(!names_windows_device(path), "{path}");
        }
    }
}
