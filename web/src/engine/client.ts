// The page's handle on the engine workers. Each profile runs in a worker of
// its own (a lane), so pg and yb run in parallel. A Rust panic can leave a wasm
// instance broken, so after one the client replaces that lane's worker: the
// next call works as if nothing happened. Cancel replaces every lane.
import * as Comlink from 'comlink';
import { EngineError, toEngineError, type EngineApi, type ProgressListener } from './api';
import type { Report } from './schema.gen';

/** Something Comlink can talk to and that can be shut down (a Worker, or a port in tests). */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

interface Lane {
  worker: WorkerLike;
  remote: Comlink.Remote<EngineApi>;
}

/**
 * How many workers run at once: two, one per core of a small laptop. Variants
 * and a sweep's runs are spread over them.
 */
export const LANES = 2;

export class EngineClient {
  private readonly lanes: (Lane | undefined)[] = [];
  /** How many workers this client has started (lanes, plus restarts). */
  starts = 0;

  constructor(private readonly spawn: () => WorkerLike) {
    this.lane(0);
  }

  /** Rejects the calls in flight when the user cancels. */
  private readonly pending = new Set<(e: EngineError) => void>();

  private lane(n: number): Lane {
    let lane = this.lanes[n];
    if (!lane) {
      const worker = this.spawn();
      lane = { worker, remote: Comlink.wrap<EngineApi>(worker) };
      this.lanes[n] = lane;
      this.starts += 1;
    }
    return lane;
  }

  /**
   * Starts every lane's worker now (each compiles the wasm as it starts), so a
   * run that is sure to come (a link's, a widget's) does not wait for them.
   */
  warm(): this {
    for (let n = 0; n < LANES; n++) this.lane(n);
    return this;
  }

  /** Calls the engine (lane 0); errors come back as EngineError with a readable message. */
  call<T>(f: (api: Comlink.Remote<EngineApi>) => Promise<T>): Promise<T> {
    return this.callOn(0, f);
  }

  async callOn<T>(n: number, f: (api: Comlink.Remote<EngineApi>) => Promise<T>): Promise<T> {
    let cancel: (e: EngineError) => void = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      cancel = reject;
    });
    this.pending.add(cancel);
    try {
      return await Promise.race([f(this.lane(n).remote), cancelled]);
    } catch (err) {
      const error = toEngineError(err);
      if (error.panicked) this.restart(n);
      throw error;
    } finally {
      this.pending.delete(cancel);
    }
  }

  /** Runs a script for the player (JSON; both profiles in one worker). */
  runTraced(
    script: string,
    profile: 'pg' | 'yb' | 'both',
    settings: string,
    onProgress: ProgressListener,
  ): Promise<string> {
    // The listener crosses to the worker as a proxy: its calls come back as messages.
    return this.call((api) => api.runTraced(script, profile, settings, Comlink.proxy(onProgress)));
  }

  /** Runs a script on one profile for the player, packed, on worker `lane` (mod LANES). */
  runTracedPacked(
    script: string,
    profile: 'pg' | 'yb',
    settings: string,
    onProgress: ProgressListener,
    lane = profile === 'pg' ? 0 : 1,
  ): Promise<Uint8Array> {
    return this.callOn(lane % LANES, (api) =>
      api.runTracedPacked(script, profile, settings, Comlink.proxy(onProgress)),
    );
  }

  /** Runs a script on one profile without a trace, on worker `lane` (mod LANES): its report. */
  async runReport(script: string, profile: 'pg' | 'yb', settings: string, lane = 0): Promise<Report> {
    const json = await this.callOn(lane % LANES, (api) => api.runReport(script, profile, settings));
    return JSON.parse(json) as Report;
  }

  /**
   * Stops a long run: wasm cannot be interrupted, so the workers are replaced
   * and the calls in flight fail with a "cancelled" error.
   */
  cancel(): void {
    const waiting = [...this.pending];
    this.pending.clear();
    this.lanes.forEach((_, n) => this.restart(n));
    for (const reject of waiting) reject(new EngineError('Cancelled', false));
  }

  private restart(n: number): void {
    const lane = this.lanes[n];
    if (!lane) return;
    lane.remote[Comlink.releaseProxy]();
    lane.worker.terminate();
    this.lanes[n] = undefined;
    this.lane(n);
  }

  dispose(): void {
    for (const lane of this.lanes) {
      if (!lane) continue;
      lane.remote[Comlink.releaseProxy]();
      lane.worker.terminate();
    }
  }
}

/** The client the app uses: real workers, bundled by Vite. */
export function createEngineClient(): EngineClient {
  return new EngineClient(
    () => new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' }),
  );
}
