//! Running cases on a device with the measurement policy of `perftest_report::policy`: the
//! run's settings and observer ([`settings`]), interleaved measurement rounds ([`rounds`]), the
//! suite driver that uses perftest-core ([`suite`]), verification ([`verify`]) and the case
//! timer and fatal errors they share ([`timer`]).

pub mod clock_watch;
pub mod refine;
pub mod rounds;
pub mod settings;
pub mod suite;
pub mod timer;
pub mod verify;
