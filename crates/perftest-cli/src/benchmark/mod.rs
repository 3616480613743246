//! Running cases on a device: the measurement loop ([`measure`]), the suite driver that uses
//! perftest-core ([`suite`]) and verification ([`verify`]).

pub mod measure;
pub mod rounds;
pub mod suite;
pub mod verify;
