import { afterEach, describe, expect, it } from 'vitest';
import * as Comlink from 'comlink';
import { ENGINE_PANIC, EngineError, toEngineError, type EngineApi } from './api';
import { EngineClient, type WorkerLike } from './client';

// A fake engine behind a real MessageChannel, so Comlink does a true round trip.
function fakeWorker(api: EngineApi, log: string[]): WorkerLike {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(api, port1);
  return Object.assign(port2, {
    terminate() {
      log.push('terminated');
      port1.close();
      port2.close();
    },
  });
}

function fakeApi(id: number): EngineApi {
  return {
    version: async () => `v-${id}`,
    selftest: async (seed, count) => `seed=${seed} count=${count} worker=${id}`,
    panicForTest: async (message) => {
      const e = new Error(`deliberate test panic: ${message}`);
      e.name = ENGINE_PANIC;
      throw e;
    },
    // A run that never ends (the 1 000 000-row load, as far as a test cares).
    runTraced: () => new Promise<string>(() => {}),
    runTracedPacked: () => new Promise<Uint8Array>(() => {}),
    runReport: () => Promise.resolve('{}'),
    scriptSets: () => Promise.resolve(false),
    runSweep: async () => '{}',
    settingsList: async () => '[]',
  };
}

const clients: EngineClient[] = [];
afterEach(() => clients.splice(0).forEach((c) => c.dispose()));

function client(log: string[] = []): EngineClient {
  let n = 0;
  const c = new EngineClient(() => fakeWorker(fakeApi(++n), log));
  clients.push(c);
  return c;
}

describe('EngineClient', () => {
  it('round-trips a call through the worker boundary', async () => {
    const c = client();
    await expect(c.call((api) => api.selftest(42, 1000))).resolves.toBe(
      'seed=42 count=1000 worker=1',
    );
  });

  it('turns a panic into a readable error and restarts the worker', async () => {
    const log: string[] = [];
    const c = client(log);
    const err = await c.call((api) => api.panicForTest('boom')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).message).toBe('The engine crashed: deliberate test panic: boom');
    expect((err as EngineError).panicked).toBe(true);
    expect(log).toEqual(['terminated']);
    expect(c.starts).toBe(2);
    // The fresh worker answers.
    await expect(c.call((api) => api.version())).resolves.toBe('v-2');
  });

  it('cancels a long run: the call fails as cancelled and a fresh worker answers', async () => {
    const log: string[] = [];
    const c = client(log);
    const run = c.call((api) => api.runTraced('select 1;', 'both', ''));
    c.cancel();
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).message).toBe('Cancelled');
    expect((err as EngineError).panicked).toBe(false);
    expect(log).toEqual(['terminated']);
    await expect(c.call((api) => api.version())).resolves.toBe('v-2');
  });
});

describe('toEngineError', () => {
  it('keeps ordinary errors as they are, without restart', () => {
    const e = toEngineError(new Error('syntax error at line 2'));
    expect(e.message).toBe('syntax error at line 2');
    expect(e.panicked).toBe(false);
  });

  it('handles non-Error values', () => {
    expect(toEngineError('plain').message).toBe('plain');
    expect(toEngineError({ message: '' }).message).toBe('unknown error');
  });
});
