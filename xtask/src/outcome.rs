//! What a command ends with.

/// What a command ends with: success, a pass-through exit status, or an error message.
pub type Outcome = Result<u8, String>;
