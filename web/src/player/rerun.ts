// What a view may ask of the workbench: the value of a setting the user set,
// and a re-run with one setting changed that opens on the same statement
// (the network view's round-trip control). Absent in places that cannot
// re-run (a test rendering a view alone).
import { createContext } from 'react';

export interface RerunWith {
  /** The setting's value if the user set it (undefined: the default). */
  value(name: string): string | undefined;
  /** Sets it (the settings panel shows it too) and runs again, opening where `statement` has run. */
  set(name: string, value: string, statement?: number): void;
}

export const RerunContext = createContext<RerunWith | null>(null);
