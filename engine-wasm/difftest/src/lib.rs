//! Differential testing: IndexLab's answers against a real PostgreSQL.
//!
//! - [`generate`]: seeded scripts within the documented SQL subset;
//! - [`postgres`]: a throwaway server, and running a script on it;
//! - [`indexlab`]: running the same script on the pg and yb profiles;
//! - [`compare`]: the first statement where the answers differ;
//! - [`minimize`]: shrinking a diverging script to a short one;
//! - [`plans`]: planner scripts, their plan shapes against PostgreSQL's;
//! - [`record`]: minimized cases as sqllogictest files, replayed without PostgreSQL.

pub mod compare;
pub mod corpus;
pub mod generate;
pub mod indexlab;
pub mod minimize;
pub mod outcome;
pub mod plan_shape;
pub mod plans;
pub mod postgres;
pub mod record;
pub mod script;
