// The views' ids, apart from the views themselves: an embed's options name
// views, and checking them must not load every view (registry.test.ts keeps
// this list equal to the registry's).
export const VIEW_IDS = ['btree', 'pool', 'scan', 'lsm', 'network'] as const;

export type ViewId = (typeof VIEW_IDS)[number];
