// <Watch at="page_split" nth={1} variant="pg">…</Watch>: a narration its
// <Scenario> reads (the player pauses at that event and shows the words).
// On its own it draws nothing.
import type { ReactNode } from 'react';

export interface WatchProps {
  at: string;
  nth?: number;
  variant?: string;
  children?: ReactNode;
}

export function Watch(props: WatchProps) {
  void props;
  return null;
}
