//! Structural invariants, for tests and for callers who want to assert them.

use std::collections::BTreeSet;

use super::compaction::SstMeta;
use super::db::Lsm;
use super::sst::Sst;
use super::types::cmp_internal;

impl Lsm {
    /// Checks that the level snapshot and the SSTs agree, that every level below
    /// L0 is sorted with disjoint files, that L0 files are ordered newest first by
    /// sequence number, and that every SST is sorted with consistent blocks.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut seen = BTreeSet::new();
        for (level, files) in self.levels.levels.iter().enumerate() {
            for meta in files {
                if !seen.insert(meta.id) {
                    return Err(format!("SST {} listed twice", meta.id));
                }
                let sst = self
                    .ssts
                    .get(&meta.id)
                    .ok_or(format!("SST {} missing", meta.id))?;
                check_meta(meta, sst)?;
                check_sst(sst)?;
            }
            if level > 0 {
                for w in files.windows(2) {
                    if w[0].largest >= w[1].smallest {
                        return Err(format!(
                            "L{level}: SSTs {} and {} overlap or are out of order",
                            w[0].id, w[1].id
                        ));
                    }
                }
            } else {
                for w in files.windows(2) {
                    if w[0].smallest_seq <= w[1].largest_seq {
                        return Err(format!(
                            "L0: SST {} is not newer than SST {}",
                            w[0].id, w[1].id
                        ));
                    }
                }
            }
        }
        if seen.len() != self.ssts.len() {
            return Err(format!(
                "{} SSTs stored, {} in levels",
                self.ssts.len(),
                seen.len()
            ));
        }
        Ok(())
    }
}

fn check_meta(meta: &SstMeta, sst: &Sst) -> Result<(), String> {
    let p = sst.properties();
    let ok = meta.smallest == sst.smallest_key()
        && meta.largest == sst.largest_key()
        && meta.size == p.file_size
        && meta.entries == p.num_entries;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "SST {}: level metadata does not match the table",
            meta.id
        ))
    }
}

fn check_sst(sst: &Sst) -> Result<(), String> {
    if sst.is_empty() {
        return Err(format!("SST {} is empty", sst.id()));
    }
    for i in 1..sst.len() as u32 {
        if cmp_internal(
            sst.user_key(i - 1),
            sst.trailer(i - 1),
            sst.user_key(i),
            sst.trailer(i),
        )
        .is_ge()
        {
            return Err(format!(
                "SST {}: entries {} and {} out of order",
                sst.id(),
                i - 1,
                i
            ));
        }
    }
    let blocks = sst.num_data_blocks();
    let p = sst.properties();
    if blocks as u64 != p.num_data_blocks || sst.block_entries(0).start != 0 {
        return Err(format!("SST {}: block table inconsistent", sst.id()));
    }
    for b in 1..blocks {
        if sst.block_entries(b).start <= sst.block_entries(b - 1).start {
            return Err(format!("SST {}: empty data block {}", sst.id(), b - 1));
        }
    }
    Ok(())
}
