//! The Vulkan loader and instance, with optional validation.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;
use std::sync::Arc;

use ash::vk;

use crate::error::{Error, Result, VkResultExt};
use crate::validation::{messenger_info, MessageLog, ValidationMessage};

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// How to create the instance.
#[derive(Clone, Debug, Default)]
pub struct InstanceOptions {
    /// Enable `VK_LAYER_KHRONOS_validation` and record its warnings and errors.
    pub validation: bool,
    /// With validation, also enable synchronization validation (slower).
    pub synchronization_validation: bool,
    /// Load the Vulkan loader from this file instead of the system's (`libvulkan.so.1` on
    /// Linux, `vulkan-1.dll` on Windows, `libvulkan.1.dylib` or MoltenVK on macOS).
    pub loader_path: Option<PathBuf>,
    /// The highest Vulkan version the instance asks for (`vk::API_VERSION_1_2`...); `None`:
    /// 1.3 where the loader has 1.1 or later. Devices are then used as that version at most
    /// (e.g. to run an older engine's configuration, or to test the paths of older devices on
    /// a newer one).
    pub max_api_version: Option<u32>,
}

/// A Vulkan instance created by perftest, with its loader and validation messenger.
pub struct Instance {
    entry: ash::Entry,
    instance: ash::Instance,
    debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    log: Arc<MessageLog>,
    api_version: u32,
    portability_enumeration: bool,
    /// The validation layer's `specVersion`, when validation is on.
    validation_layer: Option<u32>,
}

/// The first validation layer that does not deadlock when one thread signals a timeline
/// semaphore on the host while another waits for it there (1.3.296, with
/// Vulkan-ValidationLayers pull request 8519; the deadlock is its issue 4968). Before it, the
/// layer takes its lock in `vkWaitSemaphores` and waits inside it for the signal, which
/// `vkSignalSemaphore` cannot record without that lock: each round trip stalls until the
/// layer's own timeout, and perftest's transfer run seemed to hang.
pub const HOST_TIMELINE_THREADS_LAYER: u32 = vk::make_api_version(0, 1, 3, 296);

impl Instance {
    /// Loads the Vulkan loader and creates an instance.
    pub fn new(options: &InstanceOptions) -> Result<Self> {
        // SAFETY: loading the loader runs its initialisers; it is the documented way to use
        // Vulkan and we keep `entry` alive as long as anything made from it.
        let entry = unsafe { load_entry(options.loader_path.as_deref()) }?;
        let api_version = api_version_for(&entry, options)?;

        let log = Arc::new(MessageLog::default());
        let mut layers: Vec<*const c_char> = Vec::new();
        let mut extensions: Vec<*const c_char> = Vec::new();
        let mut validation_layer = None;
        if options.validation {
            validation_layer = Some(validation_layer_version(&entry)?);
            layers.push(VALIDATION_LAYER.as_ptr());
            extensions.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        let portability_enumeration = offers_portability_enumeration(&entry)?;
        if portability_enumeration {
            extensions.push(ash::khr::portability_enumeration::NAME.as_ptr());
        }

        let app = vk::ApplicationInfo::default()
            .application_name(c"perftest")
            .application_version(1)
            .engine_name(c"perftest-core")
            .api_version(api_version);
        let mut debug_info = messenger_info(&log);
        let enables = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let mut features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&enables);
        let mut info = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layers)
            .enabled_extension_names(&extensions);
        if portability_enumeration {
            info = info.flags(vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR);
        }
        if options.validation {
            info = info.push_next(&mut debug_info);
            if options.synchronization_validation {
                info = info.push_next(&mut features);
            }
        }
        // SAFETY: every pointer in `info` refers to locals that outlive the call.
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(|r| {
            if r == vk::Result::ERROR_INCOMPATIBLE_DRIVER {
                Error::NoComputeTarget
            } else {
                crate::error::loader_error("vkCreateInstance", r)
            }
        })?;

        let debug = if options.validation {
            Some(create_messenger(&entry, &instance, &log)?)
        } else {
            None
        };
        Ok(Instance {
            entry,
            instance,
            debug,
            log,
            api_version,
            portability_enumeration,
            validation_layer,
        })
    }

    /// Whether one thread may signal a timeline semaphore on the host while another waits for
    /// it there: always without validation; with it, from layer
    /// [`HOST_TIMELINE_THREADS_LAYER`] on.
    pub fn host_timeline_threads(&self) -> bool {
        self.validation_layer
            .is_none_or(|v| v >= HOST_TIMELINE_THREADS_LAYER)
    }

    /// True when the loader offered `VK_KHR_portability_enumeration` and the instance enabled
    /// it, so that portability-subset devices (MoltenVK) are listed too.
    pub fn portability_enumeration(&self) -> bool {
        self.portability_enumeration
    }

    /// The loader entry points.
    pub fn entry(&self) -> &ash::Entry {
        &self.entry
    }

    /// The ash instance (for creating devices or borrowing contexts).
    pub fn handle(&self) -> &ash::Instance {
        &self.instance
    }

    /// The API version the instance was created with.
    pub fn api_version(&self) -> u32 {
        self.api_version
    }

    /// True when validation is on.
    pub fn validation_enabled(&self) -> bool {
        self.debug.is_some()
    }

    /// Every validation warning and error recorded so far.
    pub fn validation_messages(&self) -> Vec<ValidationMessage> {
        self.log.snapshot()
    }
}

/// Loads the Vulkan loader from `path`, or else from the platform's usual names in order.
///
/// # Safety
/// Loading a library runs its initialisers (see [`ash::Entry::load_from`]).
unsafe fn load_entry(path: Option<&std::path::Path>) -> Result<ash::Entry> {
    // Escaped: a control character in the path must not split the one-line message.
    let missing = |detail: String| Error::LoaderMissing {
        detail: perftest_cases::one_line(&detail),
    };
    if let Some(given) = path {
        // One file is checked and loaded: a bare name is a file in the current folder for the
        // check, so it is one for the dynamic loader too, which would search its library path
        // for it instead (and load another file than the one checked, or none).
        let bare = given.parent().is_some_and(|p| p.as_os_str().is_empty());
        let path = if bare {
            std::path::Path::new(".").join(given)
        } else {
            given.to_path_buf()
        };
        let hint = if bare {
            " (a bare name is a file in the current folder; give the library's path)"
        } else {
            ""
        };
        // What can be checked before the dynamic loader opens it: a FIFO would block the
        // open, a truncated library would be mapped past its end (SIGBUS).
        crate::library_file::check_library(&path)
            .map_err(|why| missing(format!("{}: {why}{hint}", path.display())))?;
        // SAFETY: as this function's contract.
        return unsafe { ash::Entry::load_from(&path) }.map_err(|e| missing(format!("{e}{hint}")));
    }
    let mut tried = Vec::new();
    for name in crate::platform::LOADER_NAMES {
        // SAFETY: as this function's contract.
        match unsafe { ash::Entry::load_from(name) } {
            Ok(entry) => return Ok(entry),
            Err(e) => tried.push(format!("{name}: {e}")),
        }
    }
    Err(missing(tried.join("; ")))
}

/// The Vulkan version the instance asks for: 1.3 where the loader has 1.1 or later, else
/// 1.0, capped at `options.max_api_version` (never below 1.0).
fn api_version_for(entry: &ash::Entry, options: &InstanceOptions) -> Result<u32> {
    // SAFETY: plain query of the loader.
    let loader_version = unsafe { entry.try_enumerate_instance_version() }
        .call("vkEnumerateInstanceVersion")?
        .unwrap_or(vk::API_VERSION_1_0);
    let api_version = if loader_version >= vk::API_VERSION_1_1 {
        vk::API_VERSION_1_3
    } else {
        vk::API_VERSION_1_0
    };
    Ok(options.max_api_version.map_or(api_version, |max| {
        api_version.min(max.max(vk::API_VERSION_1_0))
    }))
}

/// The `specVersion` of the loader's `VK_LAYER_KHRONOS_validation`, or an error when it offers
/// none.
fn validation_layer_version(entry: &ash::Entry) -> Result<u32> {
    // SAFETY: plain query of the loader.
    let available = unsafe { entry.enumerate_instance_layer_properties() }
        .map_err(|r| crate::error::loader_error("vkEnumerateInstanceLayerProperties", r))?;
    available
        .iter()
        .find(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER))
        .map(|l| l.spec_version)
        .ok_or(Error::ValidationLayerMissing)
}

/// Whether the loader offers `VK_KHR_portability_enumeration`: since loader 1.3.216, devices
/// that implement only a portable subset of Vulkan (MoltenVK on macOS and iOS) are listed only
/// for an instance that asks for them.
fn offers_portability_enumeration(entry: &ash::Entry) -> Result<bool> {
    // SAFETY: plain query of the loader.
    let extensions = unsafe { entry.enumerate_instance_extension_properties(None) }
        .map_err(|r| crate::error::loader_error("vkEnumerateInstanceExtensionProperties", r))?;
    Ok(extensions.iter().any(|e| {
        e.extension_name_as_c_str()
            .is_ok_and(|n| n == ash::khr::portability_enumeration::NAME)
    }))
}

/// Creates the validation messenger that records into `log`; on failure destroys `instance`
/// (nothing else was created from it yet) and returns the error.
fn create_messenger(
    entry: &ash::Entry,
    instance: &ash::Instance,
    log: &Arc<MessageLog>,
) -> Result<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)> {
    let utils = ash::ext::debug_utils::Instance::new(entry, instance);
    // SAFETY: valid instance; `log` outlives the messenger (destroyed in Drop first).
    match unsafe { utils.create_debug_utils_messenger(&messenger_info(log), None) } {
        Ok(m) => Ok((utils, m)),
        Err(r) => {
            // SAFETY: nothing else was created from this instance yet.
            unsafe { instance.destroy_instance(None) };
            Err(Error::Vulkan {
                call: "vkCreateDebugUtilsMessengerEXT",
                result: r,
            })
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the messenger and instance were created here; every object created from the
        // instance (contexts) holds an `Arc<Instance>` and is gone before this runs.
        unsafe {
            if let Some((utils, messenger)) = self.debug.take() {
                utils.destroy_debug_utils_messenger(messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}
