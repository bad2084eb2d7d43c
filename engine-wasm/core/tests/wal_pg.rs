//! WAL volume on the PostgreSQL profile: one record per heap and index change, and
//! a full-page image for the first change of each page after a checkpoint.

use indexlab_engine::scenario::run_pg;

#[test]
fn records_per_change_and_page_images_after_checkpoint() {
    let (r, _) = run_pg(
        "create table t (id bigint primary key, v bigint);
         insert into t select generate_series(1, 1000), 0;
         \\checkpoint
         update t set v = 1 where id = 500;
         update t set v = 2 where id = 500;",
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let insert = &r.statements[1].metrics;
    // Heap tuple + primary-key entry per row, plus one record per leaf split
    // (1000 entries fill about three leaves).
    let records = insert.get("wal_records");
    assert!((2002.0..=2004.0).contains(&records), "{records}");
    assert!(insert.get("wal_fpi") > 0.0);
    let (first, second) = (&r.statements[3].metrics, &r.statements[4].metrics);
    assert!(
        first.get("wal_fpi") >= 1.0,
        "first change after the checkpoint"
    );
    assert!(first.get("wal_bytes") > second.get("wal_bytes"));
}
