// The closed list of places where one module's UI appears in another's screen (the spec's "Frontend contract").
// A contribution names one of these ids; a misspelt id is a type error (see slot-types.test.ts).
// Add an id here only when the spec adds a slot.

export const PAGE_SLOTS = [
  'shell.header',
  'shell.navbar',
  'home.empty',
  'cluster.header',
  'cluster.registration.afterProbe',
  'queue.detail.panels',
  'queues.selection',
  'messages.selection',
  'metrics.panels',
  'flow.selection.panels',
  'topology.node.marks',
  'settings.sections',
  'routing.tabs',
  'admin.tabs',
  'account.sections',
] as const;

/** Slots of the shell's own parts, beyond the spec's list: the command palette's sections (`palette.search`). */
export type ShellSlotId = 'palette.search';

/** Every row-menu item names its section; sections render in this order, separated by dividers. */
export const ROW_MENU_SECTIONS = ['Open', 'Copy', 'Operate', 'Destroy'] as const;

/** The five fixed navigation groups, in the order the navbar shows them. */
export const NAV_GROUPS = ['observe', 'messaging', 'resources', 'configuration', 'activity'] as const;

/** Fixed headings of the settings screen; runtime plugins' sections always go under `Plugins`. */
export const SETTINGS_HEADINGS = ['System', 'Platform', 'Features', 'Plugins'] as const;

/** Fixed groups of the admin area; every admin tab names one. */
export const ADMIN_GROUPS = ['Access', 'Installation', 'Governance', 'Support'] as const;

export type PageSlotId = (typeof PAGE_SLOTS)[number];
/** Row kinds with a row menu (`<kind>.actions`). */
export const ROW_MENU_KINDS = [
  'queue',
  'address',
  'connection',
  'session',
  'consumer',
  'producer',
  'message',
  'divert',
  'client',
] as const;
export type RowMenuKind = (typeof ROW_MENU_KINDS)[number];
/** Row kinds whose name links somewhere (`<kind>.link`); built-in modules only, never plugins. */
export type LinkKind = 'queue' | 'address' | 'connection' | 'session';
export type RowMenuSlotId = `${RowMenuKind}.actions`;
export type LinkSlotId = `${LinkKind}.link`;
export type RowMenuSection = (typeof ROW_MENU_SECTIONS)[number];
export type NavGroup = (typeof NAV_GROUPS)[number];
export type SettingsHeading = (typeof SETTINGS_HEADINGS)[number];
export type AdminGroup = (typeof ADMIN_GROUPS)[number];

export const NAV_GROUP_LABELS: Record<NavGroup, string> = {
  observe: 'Observe',
  messaging: 'Messaging',
  resources: 'Resources',
  configuration: 'Configuration',
  activity: 'Activity',
};
