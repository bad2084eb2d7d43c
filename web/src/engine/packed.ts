// A run as the worker sends it (indexlab-wasm's src/packed.rs): MessagePack,
// the report whole, the trace's events and snapshots each encoded on their own
// with byte offsets and kind codes. Decoding the report and the index is all
// that happens when a run arrives; each event is decoded the first time the
// player reaches it, then kept.
import { Decoder } from '@msgpack/msgpack';
import type { EngineSnapshot, Report, TraceEvent } from './schema.gen';
import { EVENT_KINDS, type EventKind, type SnapshotRef, type TraceData } from '../trace/traceData';

interface PackedTrace {
  dropped: number;
  kinds: Uint8Array;
  event_offsets: Uint8Array;
  events: Uint8Array;
  snapshot_at: number[];
  snapshot_statement: number[];
  snapshot_offsets: Uint8Array;
  snapshots: Uint8Array;
}

export interface DecodedRun {
  report: Report;
  trace: TraceData | null;
}

// One decoder for every event and snapshot: its cache of map keys (the
// schema's field names) then spares decoding the same names again, and a
// decoder is not built per event (`decode()` builds one each call).
const decoder = new Decoder();
const decode = (bytes: Uint8Array): unknown => decoder.decode(bytes);

/** Little-endian u32s (copied: a view needs 4-byte alignment). */
function u32s(bytes: Uint8Array): Uint32Array {
  return new Uint32Array(bytes.slice().buffer);
}

class PackedTraceData implements TraceData {
  readonly length: number;
  readonly dropped: number;
  readonly snapshots: readonly SnapshotRef[];
  private readonly eventOffsets: Uint32Array;
  private readonly snapshotOffsets: Uint32Array;
  private readonly decoded: (TraceEvent | undefined)[];
  private readonly states = new Map<number, EngineSnapshot>();

  constructor(private readonly p: PackedTrace) {
    this.length = p.kinds.length;
    this.dropped = p.dropped;
    this.eventOffsets = u32s(p.event_offsets);
    this.snapshotOffsets = u32s(p.snapshot_offsets);
    this.snapshots = p.snapshot_at.map((at, j) => ({
      at_event: at,
      statement: p.snapshot_statement[j] ?? 0,
    }));
    this.decoded = new Array<TraceEvent | undefined>(this.length);
  }

  kind(i: number): EventKind {
    const code = this.p.kinds[i];
    const kind = code === undefined ? undefined : EVENT_KINDS[code];
    if (!kind) throw new RangeError(`no event ${i} in a trace of ${this.length}`);
    return kind;
  }

  event(i: number): TraceEvent {
    let e = this.decoded[i];
    if (!e) {
      if (i < 0 || i >= this.length) throw new RangeError(`no event ${i} in a trace of ${this.length}`);
      const from = this.eventOffsets[i] ?? 0;
      const to = this.eventOffsets[i + 1] ?? from;
      e = decode(this.p.events.subarray(from, to)) as TraceEvent;
      this.decoded[i] = e;
    }
    return e;
  }

  snapshotState(j: number): EngineSnapshot {
    let s = this.states.get(j);
    if (!s) {
      const from = this.snapshotOffsets[j];
      const to = this.snapshotOffsets[j + 1];
      if (from === undefined || to === undefined) throw new RangeError(`no snapshot ${j}`);
      s = decode(this.p.snapshots.subarray(from, to)) as EngineSnapshot;
      this.states.set(j, s);
    }
    return s;
  }
}

/** A packed run from the worker. */
export function decodeRun(bytes: Uint8Array): DecodedRun {
  const run = decode(bytes) as { report: Report; trace: PackedTrace | null };
  return { report: run.report, trace: run.trace ? new PackedTraceData(run.trace) : null };
}
