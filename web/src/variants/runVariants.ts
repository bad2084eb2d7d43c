// Runs a script on each variant, side by side: every variant in a worker lane
// of its own (two run at once), each with its own settings, for the player.
import { decodeRun } from '../engine/packed';
import type { Profile, TracedRun } from '../workbench/report';
import { settingsLines } from '../workbench/settings';
import { variantSettings, type Variant } from './variant';

/** One column of the results: a variant and what its run gave (nothing yet: undefined). */
export interface ResultColumn {
  id: string;
  name: string;
  profile: Profile;
  run: TracedRun | undefined;
}

/** What running needs from the engine: one traced, packed run on a worker lane. */
export type RunPacked = (
  script: string,
  profile: Profile,
  settings: string,
  lane: number,
  onProgress: (done: number, total: number) => void,
) => Promise<Uint8Array>;

/** A variant's settings as the engine reads them; `fullDetail` records that statement (0-based) whole. */
export function variantLines(page: Readonly<Record<string, string>>, variant: Variant, fullDetail?: number): string {
  const o = variantSettings(page, variant);
  if (fullDetail !== undefined) o.trace_full_detail_statement = String(fullDetail + 1);
  return settingsLines(o);
}

export async function runVariants(
  script: string,
  variants: readonly Variant[],
  page: Readonly<Record<string, string>>,
  run: RunPacked,
  options: {
    fullDetail?: number | undefined;
    onProgress?: (id: string, done: number, total: number) => void;
    /** Hears the columns each time one arrives before the last (those still running have no run). */
    onColumn?: (columns: ResultColumn[]) => void;
  } = {},
): Promise<ResultColumn[]> {
  const columns: ResultColumn[] = variants.map((v) => ({ id: v.id, name: v.name, profile: v.profile, run: undefined }));
  let arrived = 0;
  await Promise.all(
    variants.map(async (v, lane) => {
      const bytes = await run(script, v.profile, variantLines(page, v, options.fullDetail), lane, (done, total) =>
        options.onProgress?.(v.id, done, total),
      );
      // Decoded as it arrives (once: the final columns are these same objects),
      // while the other lanes may still be running.
      columns[lane] = { id: v.id, name: v.name, profile: v.profile, run: decodeRun(bytes) };
      arrived += 1;
      if (arrived < variants.length) options.onColumn?.([...columns]);
    }),
  );
  return columns;
}
