// The page's engine client, for components deep in a lesson.
import { createContext, useContext } from 'react';
import type { EngineClient } from './client';

export const EngineContext = createContext<EngineClient | null>(null);

export function useEngine(): EngineClient {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('IndexLab: no engine in this part of the page');
  return engine;
}
