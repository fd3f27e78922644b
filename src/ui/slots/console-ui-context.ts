import { createContext, useContext } from 'react';
import type { Manifest } from '../data/manifest.ts';
import type { ModuleUi } from './contribution-types.ts';

export interface ConsoleUi {
  readonly manifest: Manifest | undefined;
  /** UI of modules that are installed and enabled; empty until the manifest has arrived. */
  readonly enabled: readonly ModuleUi[];
}

export const ConsoleUiContext = createContext<ConsoleUi>({ manifest: undefined, enabled: [] });

export function useConsoleUi(): ConsoleUi {
  return useContext(ConsoleUiContext);
}
