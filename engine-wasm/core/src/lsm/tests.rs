//! Tests of the whole tree: the article's figures, compaction, a model-checked
//! random workload, reads, stress and performance bounds.

mod article;
mod compaction;
mod model;
mod perf;
mod read;
mod stress;
