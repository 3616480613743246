//! Running cases on a device: sizing and clock warm-up ([`measure`]), interleaved measurement
//! rounds ([`rounds`]), the suite driver that uses perftest-core ([`suite`]) and verification
//! ([`verify`]).

pub mod clock_watch;
pub mod measure;
pub mod refine;
pub mod rounds;
pub mod suite;
pub mod verify;
