import { createContext, useContext } from 'react';
import type { Manifest } from '../data/manifest.ts';
import type { ModuleUi } from './contribution-types.ts';

export interface ConsoleUi {
  readonly manifest: Manifest | undefined;
  /** UI of modules that are installed and enabled; empty until the manifest has arrived. */
  readonly enabled: readonly ModuleUi[];
  /** Whether the active runtime plugins' UI bundles have been loaded (or found to be none), so a plugin's screen can
   *  tell "still loading" from "no such screen". */
  readonly pluginsLoaded: boolean;
}

export const ConsoleUiContext = createContext<ConsoleUi>({ manifest: undefined, enabled: [], pluginsLoaded: false });

export function useConsoleUi(): ConsoleUi {
  return useContext(ConsoleUiContext);
}
