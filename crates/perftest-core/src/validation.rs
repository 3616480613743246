//! Collecting validation-layer messages through a debug-utils messenger.

use std::ffi::{c_void, CStr};
use std::sync::{Arc, Mutex};

use ash::vk;

/// Severity of a recorded message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// A warning (possible misuse, performance issue).
    Warning,
    /// An error (invalid API usage).
    Error,
}

/// One message the validation layer reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationMessage {
    /// Warning or error.
    pub severity: Severity,
    /// The message id name (e.g. `VUID-vkCmdDispatch-...`), when given.
    pub id: String,
    /// The message text.
    pub text: String,
}

/// Shared store the debug callback writes into.
#[derive(Debug, Default)]
pub(crate) struct MessageLog {
    messages: Mutex<Vec<ValidationMessage>>,
}

impl MessageLog {
    pub(crate) fn snapshot(&self) -> Vec<ValidationMessage> {
        match self.messages.lock() {
            Ok(m) => m.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    fn push(&self, message: ValidationMessage) {
        match self.messages.lock() {
            Ok(mut m) => m.push(message),
            Err(poisoned) => poisoned.into_inner().push(message),
        }
    }
}

/// Builds the messenger description; `log` must outlive every messenger made from it.
pub(crate) fn messenger_info(
    log: &Arc<MessageLog>,
) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_message))
        .user_data(Arc::as_ptr(log) as *mut c_void)
}

fn text_of(ptr: *const std::ffi::c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: the layer passes NUL-terminated strings valid for the callback's duration.
    unsafe { CStr::from_ptr(ptr) }
        .to_string_lossy()
        .into_owned()
}

unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    if data.is_null() || user.is_null() {
        return vk::FALSE;
    }
    // SAFETY: `user` is the `MessageLog` inside an `Arc` that the instance keeps alive until
    // after the messenger is destroyed; `data` is valid for this call.
    let (log, data) = unsafe { (&*(user as *const MessageLog), &*data) };
    let severity = if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        Severity::Error
    } else {
        Severity::Warning
    };
    log.push(ValidationMessage {
        severity,
        id: text_of(data.p_message_id_name),
        text: text_of(data.p_message),
    });
    vk::FALSE
}
