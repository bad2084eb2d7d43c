// The widget's engine: one for the page's life, started (both workers, each
// compiling the wasm) the moment the reader clicks or scrolls to the widget,
// while the player's code is still loading.
import { createEngineClient, type EngineClient } from '../engine/client';

let engine: EngineClient | undefined;

export function pageEngine(): EngineClient {
  engine ??= createEngineClient().warm();
  return engine;
}
