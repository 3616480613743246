//! What perftest prints besides results: progress, exit codes, and text made safe to print.

pub mod exit_code;
pub mod printable;
pub mod progress;

/// `eprintln!` that never panics: a line for stderr that is lost, not fatal, when stderr is
/// closed or full (`perftest -v 2>&1 | head -1`), where `eprintln!` panics (exit 101).
#[macro_export]
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics (see [`stderr_line!`](crate::stderr_line)).
#[macro_export]
macro_rules! stderr_part {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::write!(::std::io::stderr(), $($arg)*);
    }};
}
