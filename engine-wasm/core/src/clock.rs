//! The virtual clock. Simulated work advances it by the cost model's constants, so
//! `clock_timestamp()`, EXPLAIN ANALYZE times and latencies are deterministic and
//! never depend on how fast the host machine is.

/// Microseconds since 2000-01-01 00:00:00 UTC (PostgreSQL's epoch), as a float so
/// sub-microsecond costs accumulate without rounding drift.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Clock {
    now_us: f64,
}

/// The scenario's start: 2026-01-01 00:00:00 UTC, in microseconds since 2000-01-01.
pub const SCENARIO_EPOCH_US: f64 = 820_540_800_000_000.0;

impl Default for Clock {
    fn default() -> Self {
        Clock {
            now_us: SCENARIO_EPOCH_US,
        }
    }
}

impl Clock {
    pub fn now_us(&self) -> f64 {
        self.now_us
    }

    /// The current time as PostgreSQL stores a timestamptz (whole microseconds).
    pub fn timestamp(&self) -> i64 {
        self.now_us as i64
    }

    pub fn advance_us(&mut self, us: f64) {
        if us.is_finite() && us > 0.0 {
            self.now_us += us;
        }
    }
}

/// The cost model: virtual time charged per unit of simulated work. Defaults are an
/// SSD-backed server; every constant is a setting a lesson can change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostModel {
    /// A buffer or block-cache hit.
    pub cache_hit_us: f64,
    /// A page or block read from the device.
    pub device_read_us: f64,
    /// A page or block written to the device.
    pub device_write_us: f64,
    /// CPU to produce or consume one row.
    pub cpu_row_us: f64,
    /// CPU for one key comparison (sorts, index and LSM key steps).
    pub cpu_compare_us: f64,
    /// CPU to evaluate one operator of an expression (a join filter's `=`).
    pub cpu_operator_us: f64,
    /// Server time to handle one request, and for each operation it carries.
    pub request_overhead_us: f64,
    pub request_op_us: f64,
}

impl Default for CostModel {
    fn default() -> Self {
        CostModel {
            cache_hit_us: 0.1,
            device_read_us: 100.0,
            device_write_us: 50.0,
            cpu_row_us: 0.2,
            cpu_compare_us: 0.01,
            cpu_operator_us: 0.05,
            request_overhead_us: 250.0,
            request_op_us: 5.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_only_moves_forward() {
        let mut c = Clock::default();
        let t0 = c.timestamp();
        c.advance_us(1.5);
        c.advance_us(-10.0);
        c.advance_us(f64::NAN);
        assert_eq!(c.timestamp(), t0 + 1);
        c.advance_us(0.5);
        assert_eq!(c.timestamp(), t0 + 2);
    }
}
