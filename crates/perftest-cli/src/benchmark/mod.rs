//! Running cases on a device with the measurement policy of `perftest_report::policy`: interleaved measurement
//! rounds ([`rounds`]), the suite driver that uses perftest-core ([`suite`]) and verification
//! ([`verify`]).

pub mod clock_watch;
pub mod refine;
pub mod rounds;
pub mod suite;
pub mod verify;
