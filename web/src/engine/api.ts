// The engine's API as the page sees it: what the worker exposes through Comlink.
// Every call is async because it crosses the worker boundary.

/**
 * Hears how a run goes: statement runs done of the total, per profile ("both"
 * runs pg, then yb). Called at most every 50 ms, and at the start and end.
 */
export type ProgressListener = (profile: 'pg' | 'yb', done: number, total: number) => void;

export interface EngineApi {
  /** The engine crate's version. */
  version(): Promise<string>;
  /** The self-test fingerprint, the same line `indexlab-cli --selftest` prints. */
  selftest(seed: number, count: number): Promise<string>;
  /** Panics inside wasm on purpose (tests the error path). */
  panicForTest(message: string): Promise<void>;
  /**
   * Runs a script for the player: JSON `{"report", "trace"}` (per profile with
   * "both"); `settings` is `name=value` lines.
   */
  runTraced(
    script: string,
    profile: 'pg' | 'yb' | 'both',
    settings: string,
    onProgress?: ProgressListener,
  ): Promise<string>;
  /**
   * Runs a script on one profile for the player, packed (engine/packed.ts):
   * the bytes are transferred, not copied, and decoded on demand.
   */
  runTracedPacked(
    script: string,
    profile: 'pg' | 'yb',
    settings: string,
    onProgress?: ProgressListener,
  ): Promise<Uint8Array>;
  /** Runs a script on one profile without a trace: its report as JSON (the CLI's `--json`). */
  runReport(script: string, profile: 'pg' | 'yb', settings: string): Promise<string>;
  /** Does the script set this setting itself (a SET or a Set() hint)? */
  scriptSets(script: string, name: string): Promise<boolean>;
  /** Every setting with its default, type, unit, bounds and meaning (JSON). */
  settingsList(): Promise<string>;
  /** Runs a script once per value (`sweep` is `name=v1,v2,…`): JSON for a chart. */
  runSweep(script: string, profile: 'pg' | 'yb', settings: string, sweep: string): Promise<string>;
}

/** The error name the worker gives to a Rust panic. */
export const ENGINE_PANIC = 'EnginePanic';

/** An error from the engine, with the text the page shows. */
export class EngineError extends Error {
  constructor(
    message: string,
    /** True when the engine panicked: the worker was restarted. */
    readonly panicked: boolean,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** Turns whatever a worker call threw into an EngineError with a readable message. */
export function toEngineError(err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  if (err instanceof Error || (typeof err === 'object' && err !== null && 'message' in err)) {
    const e = err as { name?: unknown; message?: unknown };
    const message = typeof e.message === 'string' && e.message ? e.message : 'unknown error';
    const panicked = e.name === ENGINE_PANIC;
    return new EngineError(panicked ? `The engine crashed: ${message}` : message, panicked);
  }
  return new EngineError(String(err), false);
}
