//! The integration tests of perftest-cases, one module per topic, in one test binary.

mod portability;
