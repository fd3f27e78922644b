// What a module's UI may contribute: navigation entries, owned routes, and slot contributions typed against the
// closed slot list. Each module exports one `ModuleUi` from its `ui/contributions.ts(x)`; src/ui/installed-ui.ts
// lists them and the shell keeps only those of enabled modules.
import type { ComponentType } from 'react';
import type { PaletteSearch } from './palette-search-types.ts';
import type {
  AdminGroup,
  LinkSlotId,
  NavGroup,
  PageSlotId,
  RowMenuSection,
  RowMenuSlotId,
  SettingsHeading,
  ShellSlotId,
} from './slot-ids.ts';

type NoProps = Record<string, never>;
interface ClusterProps {
  readonly clusterId: string;
}
/** Selection slots receive the selected rows' keys; the contributing module reads what it needs. */
interface SelectionProps extends ClusterProps {
  readonly keys: readonly string[];
}

/**
 * Slots a module declares on its own screens, beyond the spec's list: slot id → props. Empty here; the owning module
 * merges its slots in (`declare module '@/ui/slots/contribution-types.ts'`, in its ui/contributions.ts), so a
 * contributor gets the props' type without importing the owner, and a slot nobody declares is a type error.
 * @public (knip: used through `declare module`, which it does not follow)
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ModuleSlotProps {}

/** Props each panel-like slot hands to its contributions. */
export interface PanelSlotProps extends ModuleSlotProps {
  'shell.header': NoProps;
  'shell.navbar': NoProps;
  'home.empty': NoProps;
  'cluster.header': ClusterProps;
  'cluster.registration.afterProbe': ClusterProps;
  'queue.detail.panels': ClusterProps & { readonly queueName: string };
  'queues.selection': SelectionProps;
  'messages.selection': SelectionProps;
  'metrics.panels': ClusterProps;
  'flow.selection.panels': SelectionProps;
  'topology.node.marks': ClusterProps & { readonly nodeId: string };
  'routing.tabs': ClusterProps;
  'account.sections': NoProps;
}

/** Slots with their own contribution shape (below); every other page slot takes a component. */
type ShapedSlot = 'settings.sections' | 'admin.tabs';
export type PanelSlotId = Exclude<PageSlotId, ShapedSlot> | keyof ModuleSlotProps;

interface ContributionBase {
  /** Unique within the module, e.g. `audit-retention-panel`. */
  readonly id: string;
  /** Lower comes first; ties keep installation order. */
  readonly order?: number;
}

export type PanelContribution = {
  [Slot in PanelSlotId]: ContributionBase & {
    readonly slot: Slot;
    /** Shown where the slot has titles (tabs, panels). */
    readonly title?: string;
    readonly component: ComponentType<PanelSlotProps[Slot]>;
  };
}[PanelSlotId];

interface SettingsSectionContribution extends ContributionBase {
  readonly slot: 'settings.sections';
  readonly heading: SettingsHeading;
  readonly title: string;
  readonly component: ComponentType;
}

/** An admin tab is a route of its own: the admin layout lists the tabs, the route renders the screen. */
interface AdminTabContribution extends ContributionBase {
  readonly slot: 'admin.tabs';
  readonly group: AdminGroup;
  readonly label: string;
  readonly href: string;
}

/**
 * A section of the command palette (src/ui/command-palette), beyond the spec's slots: the shell's own search asks
 * each enabled module for its things by name, so a switched-off module's section is gone with it.
 */
interface PaletteSearchContribution extends ContributionBase {
  readonly slot: ShellSlotId;
  /** The section's heading, e.g. `Clusters`. */
  readonly title: string;
  /**
   * A React hook: the section for the settled text ('' before any is typed). The palette calls the hook of every
   * enabled module on each render, in installation order, and starts afresh when that list changes.
   */
  readonly useSearch: (text: string) => PaletteSearch;
}

/** The row a row menu or a link acts on: its key (e.g. a queue name) and the row as the table holds it. */
export interface RowTarget {
  readonly clusterId?: string;
  readonly key: string;
  readonly row: unknown;
}

export interface RowMenuContribution extends ContributionBase {
  readonly slot: RowMenuSlotId;
  readonly section: RowMenuSection;
  readonly label: string;
  /** Either a place to go… */
  readonly href?: (target: RowTarget) => string;
  /**
   * …or something to do (copy, open a dialog). What it answers, if anything, is confirmed beside the row's menu
   * button for a moment (e.g. "Copied orders.29"), so an action with no visible effect still says it happened.
   */
  readonly run?: (target: RowTarget) => string | undefined | Promise<string | undefined>;
  /** Whether the item is offered on this row (e.g. Resume only on a paused queue); on every row when absent. */
  readonly visible?: (target: RowTarget) => boolean;
}

interface LinkContribution extends ContributionBase {
  readonly slot: LinkSlotId;
  readonly href: (target: RowTarget) => string;
}

export type Contribution =
  | PanelContribution
  | SettingsSectionContribution
  | AdminTabContribution
  | RowMenuContribution
  | LinkContribution
  | PaletteSearchContribution;

/** Runtime plugins may not contribute links, and their settings sections always sit under `Plugins`. */
export type PluginContribution =
  | Exclude<Contribution, LinkContribution | SettingsSectionContribution>
  | (Omit<SettingsSectionContribution, 'heading'> & { readonly heading: 'Plugins' });

export type ContributionFor<Slot extends Contribution['slot']> = Extract<Contribution, { slot: Slot }>;

export interface NavEntry {
  readonly group: NavGroup;
  readonly label: string;
  readonly href: string;
  readonly icon?: ComponentType<{ size?: number; stroke?: number }>;
  readonly order?: number;
}

/** A page a runtime plugin brings (built-in modules have route files of their own): at `/plugin/<plugin id>/<name>`. */
export interface PluginScreen {
  /** The part of the contribution's id after `<plugin id>.`, e.g. `checker`. */
  readonly name: string;
  readonly title: string;
  readonly component: ComponentType;
}

export interface ModuleUi {
  /** The module id as the manifest names it. */
  readonly moduleId: string;
  /** Path prefixes this module's screens live under; a deep link to a disabled module's path shows FeatureOff. */
  readonly routes?: readonly string[];
  readonly navigation?: readonly NavEntry[];
  readonly contributions?: readonly Contribution[];
  /** Runtime plugins only: their screens, each with its navigation entry among `navigation`. */
  readonly screens?: readonly PluginScreen[];
}

/** Identity function that makes the contribution literal type-checked where it is written. */
export function defineModuleUi(ui: ModuleUi): ModuleUi {
  return ui;
}
