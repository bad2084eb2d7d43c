// The page's handle on the engine worker. A Rust panic can leave the wasm instance
// in a broken state, so after one the client throws the worker away and starts a
// fresh one: the next call works as if nothing happened.
import * as Comlink from 'comlink';
import { toEngineError, type EngineApi } from './api';

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

  /** Calls the engine; errors come back as EngineError with a readable message. */
  async call<T>(f: (api: Comlink.Remote<EngineApi>) => Promise<T>): Promise<T> {
    try {
      return await f(this.remote);
    } catch (err) {
      const error = toEngineError(err);
      if (error.panicked) this.restart();
      throw error;
    }
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
