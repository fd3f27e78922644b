// A plugin's states and the operations that move it (spec: Plugin lifecycle). Pure, so the whole table is tested on
// its own and the router, the UI and the docs read the same answer to "may this happen now?".
//
//   UPLOADED ──activate──► ACTIVE ──disable──► DISABLED ──activate──► ACTIVE
//   ACTIVE ──rollback──► ACTIVE (the previous version)      FAILED ──activate / disable──►
//   UPLOADED | DISABLED | FAILED ──uninstall──► UNINSTALLED ──purge──► gone (archives and schema dropped)
//   UNINSTALLED ──activate──► ACTIVE (its schema was kept, so nothing is lost until purge)

export const PLUGIN_STATES = ['UPLOADED', 'ACTIVE', 'DISABLED', 'FAILED', 'UNINSTALLED'] as const;
export type PluginState = (typeof PLUGIN_STATES)[number];

export const PLUGIN_OPERATIONS = ['activate', 'disable', 'uninstall', 'rollback', 'purge'] as const;
export type PluginOperation = (typeof PLUGIN_OPERATIONS)[number];

const ALLOWED: Record<PluginOperation, readonly PluginState[]> = {
  activate: ['UPLOADED', 'DISABLED', 'FAILED', 'UNINSTALLED', 'ACTIVE'],
  disable: ['ACTIVE', 'FAILED'],
  uninstall: ['UPLOADED', 'DISABLED', 'FAILED'],
  rollback: ['ACTIVE', 'DISABLED', 'FAILED'],
  purge: ['UNINSTALLED'],
};

const WHY_NOT: Record<PluginOperation, string> = {
  activate: 'it is already active in this version',
  disable: 'it is not running',
  uninstall: 'an active plugin is disabled first',
  rollback: 'there is no earlier version it ran',
  purge: 'only an uninstalled plugin is purged (uninstall it first)',
};

export interface PluginPosition {
  readonly state: PluginState;
  readonly version: string;
  readonly previousVersion: string | null;
}

/** Why `operation` cannot run on a plugin in this position (a sentence), or undefined when it can. */
export function refusalOf(
  operation: PluginOperation,
  position: PluginPosition,
  targetVersion?: string,
): string | undefined {
  if (!ALLOWED[operation].includes(position.state))
    return `It is ${position.state.toLowerCase()}: ${WHY_NOT[operation]}.`;
  if (
    operation === 'activate' &&
    position.state === 'ACTIVE' &&
    (targetVersion ?? position.version) === position.version
  )
    return `It is already active in version ${position.version}.`;
  if (operation === 'rollback' && position.previousVersion === null)
    return `It is ${position.state.toLowerCase()}: ${WHY_NOT.rollback}.`;
  return undefined;
}

/** The state an operation leaves behind when it succeeds (purge leaves nothing). */
export function stateAfter(operation: PluginOperation): PluginState | undefined {
  switch (operation) {
    case 'activate':
    case 'rollback':
      return 'ACTIVE';
    case 'disable':
      return 'DISABLED';
    case 'uninstall':
      return 'UNINSTALLED';
    case 'purge':
      return undefined;
  }
}
