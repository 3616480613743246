//! A list of named checks that all run, each printed as it ends, with a count at the end.

use std::process::Output;

/// Named checks of one area (`Windows under Wine`, `release archives`).
pub struct Checks {
    area: &'static str,
    passed: usize,
    failed: Vec<String>,
}

impl Checks {
    /// An empty list for `area`.
    pub fn new(area: &'static str) -> Checks {
        eprintln!("{area}:");
        Checks {
            area,
            passed: 0,
            failed: Vec::new(),
        }
    }

    /// Records and prints the result of the check `what`.
    pub fn check(&mut self, what: &str, result: Result<(), String>) {
        match result {
            Ok(()) => {
                eprintln!("  ok      {what}");
                self.passed += 1;
            }
            Err(message) => {
                eprintln!("  FAILED  {what}: {message}");
                self.failed.push(what.to_string());
            }
        }
    }

    /// Prints the count; an error naming the failed checks when any failed.
    pub fn finish(self) -> Result<(), String> {
        eprintln!(
            "{}: {} checks passed, {} failed",
            self.area,
            self.passed,
            self.failed.len()
        );
        if self.failed.is_empty() {
            Ok(())
        } else {
            Err(format!("{}: failed: {}", self.area, self.failed.join(", ")))
        }
    }
}

/// The exit code, stdout and stderr of a finished command, for checks and messages.
pub struct Ran {
    /// The exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    /// Standard output, as text.
    pub stdout: String,
    /// Standard error, as text (without Wine's and Xvfb's own noise when it came from Wine).
    pub stderr: String,
}

impl Ran {
    /// Wraps `output`, with `stderr` already cleaned by the caller.
    pub fn new(output: &Output, stderr: String) -> Ran {
        Ran {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr,
        }
    }

    /// Ok when the command exited with `code`, else an error showing what it printed.
    pub fn expect_code(&self, code: i32) -> Result<(), String> {
        if self.code == Some(code) {
            Ok(())
        } else {
            Err(format!(
                "exit {:?}, expected {code}\n{}",
                self.code,
                self.shown()
            ))
        }
    }

    /// Ok when standard output contains `text`.
    pub fn expect_stdout(&self, text: &str) -> Result<(), String> {
        if self.stdout.contains(text) {
            Ok(())
        } else {
            Err(format!("standard output lacks {text:?}\n{}", self.shown()))
        }
    }

    /// Ok when standard error contains `text`.
    pub fn expect_stderr(&self, text: &str) -> Result<(), String> {
        if self.stderr.contains(text) {
            Ok(())
        } else {
            Err(format!("standard error lacks {text:?}\n{}", self.shown()))
        }
    }

    /// The tail of both streams, for a failure message.
    fn shown(&self) -> String {
        let tail = |text: &str| {
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(12)..].join("\n    ")
        };
        format!(
            "  stdout:\n    {}\n  stderr:\n    {}",
            tail(&self.stdout),
            tail(&self.stderr)
        )
    }
}
