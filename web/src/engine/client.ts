// The page's handle on the engine worker. A Rust panic can leave the wasm instance
// in a broken state, so after one the client throws the worker away and starts a
// fresh one: the next call works as if nothing happened.
import * as Comlink from 'comlink';
import { EngineError, toEngineError, type EngineApi, type ProgressListener } from './api';

/** Something Comlink can talk to and that can be shut down (a Worker, or a port in tests). */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

export class EngineClient {
  private worker: WorkerLike;
  private remote: Comlink.Remote<EngineApi>;
  /** How many workers this client has started (1 + restarts after panics). */
  starts = 1;

  constructor(private readonly spawn: () => WorkerLike) {
    this.worker = spawn();
    this.remote = Comlink.wrap<EngineApi>(this.worker);
  }

  /** Rejects the calls in flight when the user cancels. */
  private readonly pending = new Set<(e: EngineError) => void>();

  /** Calls the engine; errors come back as EngineError with a readable message. */
  async call<T>(f: (api: Comlink.Remote<EngineApi>) => Promise<T>): Promise<T> {
    let cancel: (e: EngineError) => void = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      cancel = reject;
    });
    this.pending.add(cancel);
    try {
      return await Promise.race([f(this.remote), cancelled]);
    } catch (err) {
      const error = toEngineError(err);
      if (error.panicked) this.restart();
      throw error;
    } finally {
      this.pending.delete(cancel);
    }
  }

  /** Runs a script for the player, telling `onProgress` how far each profile is. */
  runTraced(
    script: string,
    profile: 'pg' | 'yb' | 'both',
    settings: string,
    onProgress: ProgressListener,
  ): Promise<string> {
    // The listener crosses to the worker as a proxy: its calls come back as messages.
    return this.call((api) => api.runTraced(script, profile, settings, Comlink.proxy(onProgress)));
  }

  /**
   * Stops a long run: wasm cannot be interrupted, so the worker is replaced and
   * the calls in flight fail with a "cancelled" error.
   */
  cancel(): void {
    const waiting = [...this.pending];
    this.pending.clear();
    this.restart();
    for (const reject of waiting) reject(new EngineError('Cancelled', false));
  }

  private restart(): void {
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
    this.worker = this.spawn();
    this.remote = Comlink.wrap<EngineApi>(this.worker);
    this.starts += 1;
  }

  dispose(): void {
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
  }
}

/** The client the app uses: the real worker, bundled by Vite. */
export function createEngineClient(): EngineClient {
  return new EngineClient(
    () => new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' }),
  );
}
