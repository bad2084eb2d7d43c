//! A traced run packed for the page: the report, and the trace with each
//! event and each snapshot encoded on its own (MessagePack, named fields, the
//! types of `web/src/engine/schema.gen.ts`), indexed by byte offsets and kind
//! codes. The page decodes what it shows, when it shows it: opening a run
//! costs its report and one snapshot, not a parse of every event.

use indexlab_engine::trace::schema::kind_code;
use indexlab_engine::traced::TracedRun;
use serde::Serialize;
use serde_bytes::ByteBuf;

#[derive(Serialize)]
struct PackedRun<'a> {
    report: &'a indexlab_engine::report_json::ReportJson,
    trace: Option<PackedTrace>,
}

#[derive(Serialize)]
struct PackedTrace {
    dropped: u64,
    /// One kind code per event (`EVENT_KINDS` in the schema).
    kinds: ByteBuf,
    /// n + 1 little-endian u32: event i is `events[offsets[i]..offsets[i + 1]]`.
    event_offsets: ByteBuf,
    events: ByteBuf,
    /// Per snapshot: the event it stands before, and the statement.
    snapshot_at: Vec<u32>,
    snapshot_statement: Vec<u32>,
    snapshot_offsets: ByteBuf,
    snapshots: ByteBuf,
}

/// Encodes each item on its own into one buffer, with its offsets.
fn encode_each<T: Serialize>(items: impl Iterator<Item = T>) -> (ByteBuf, ByteBuf) {
    let mut bytes = Vec::new();
    let mut offsets = vec![0u8; 4];
    for item in items {
        rmp_serde::encode::write_named(&mut bytes, &item).expect("plain data encodes");
        offsets.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    }
    (ByteBuf::from(bytes), ByteBuf::from(offsets))
}

pub fn pack(run: &TracedRun) -> Vec<u8> {
    let trace = run.trace.as_ref().map(|t| {
        let (events, event_offsets) = encode_each(t.events().iter());
        let (snapshots, snapshot_offsets) = encode_each(t.snapshots.iter().map(|s| &s.state));
        PackedTrace {
            dropped: t.dropped,
            kinds: ByteBuf::from(t.events().iter().map(kind_code).collect::<Vec<u8>>()),
            event_offsets,
            events,
            snapshot_at: t.snapshots.iter().map(|s| s.at_event as u32).collect(),
            snapshot_statement: t.snapshots.iter().map(|s| s.statement).collect(),
            snapshot_offsets,
            snapshots,
        }
    });
    rmp_serde::to_vec_named(&PackedRun {
        report: &run.report,
        trace,
    })
    .expect("plain data encodes")
}
