//! The cache hierarchy of the memory suite's sweep, as the outputs print it: the figures are
//! perftest-report's [`perftest_report::hierarchy`] (re-exported here); [`section`] is the text
//! and Markdown reports' cache-hierarchy section, and the HTML and SVG reports draw the curves
//! from the same [`Hierarchy`].

pub(crate) mod section;

pub use perftest_report::hierarchy::*;

pub use self::section::{hierarchy_text, section};
