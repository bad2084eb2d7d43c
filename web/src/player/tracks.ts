// What one player drives: the columns whose run left a trace, joined (Joint),
// and where the player opens. The workbench's results and an embed share it.
import type { Joint } from '../trace/joint';
import type { TraceData } from '../trace/traceData';
import type { ResultColumn } from '../variants/runVariants';

/** The columns whose run left a trace to replay (one with snapshots to start from). */
export function replayable(columns: readonly ResultColumn[]): { column: ResultColumn; trace: TraceData }[] {
  return columns.flatMap((column) => {
    const trace = column.run?.trace;
    return trace && trace.snapshots.length > 0 ? [{ column, trace }] : [];
  });
}

/** Where a new player opens: a statement's start or end, or a position (a link's). */
export type OpenAt = { statement: number; at: 'start' | 'end' } | { position: number };

/** The position a player opens at (undefined: the end of the run). */
export function startOf(joint: Joint, openAt: OpenAt | undefined): number | undefined {
  if (openAt === undefined) return undefined;
  if ('position' in openAt) return Math.min(openAt.position, joint.length);
  return openAt.at === 'start' ? joint.positionOfStatement(openAt.statement) : joint.positionAfterStatement(openAt.statement);
}
