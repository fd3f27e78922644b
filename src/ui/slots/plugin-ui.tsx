'use client';
// Runtime plugins' UI bundles (spec: Runtime plugins). At start the shell asks GET /api/v1/plugin-ui which active
// plugins bring a bundle, imports each as an ES module and calls its `contribute(sdk)` with a frozen SDK (React's
// h and hooks, a few Mantine components, and fetchJson bound to the plugin's gateway). What comes back is checked
// against what the plugin's manifest declared — a page slot only (never a link), settings only under Plugins, a
// render function — and every accepted contribution renders inside an error boundary, so a plugin that throws shows
// "Plugin <name> failed: …" where it would have been and the page around it keeps working. A screen (`kind: 'screen'`
// in `nav.<group>`) becomes an entry of that navbar group and a page at /plugin/<id>/<name> (plugin-screen.tsx). A
// bundle that fails to load is logged and left out; the others and the console go on. This file knows only the URL
// and the SDK's shape.
import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { Component, createElement, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import type {
  Contribution,
  ModuleUi,
  NavEntry,
  PluginScreen,
  RowMenuContribution,
  RowTarget,
} from './contribution-types.ts';
import {
  NAV_GROUPS,
  PAGE_SLOTS,
  ROW_MENU_KINDS,
  ROW_MENU_SECTIONS,
  type NavGroup,
  type RowMenuSlotId,
} from './slot-ids.ts';

const BUNDLES_URL = '/api/v1/plugin-ui';
/** The SDK's major version; a bundle may say which it was built for (`export const sdk = 1`). */
const PLUGIN_SDK_VERSION = 1;

interface Declared {
  readonly kind: string;
  readonly slot: string;
  readonly id: string;
}

interface PluginBundle {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly url: string;
  readonly contributions: readonly Declared[];
  readonly settings: readonly string[];
}

/** What a plugin's `render` gets and what `contribute` answers, before they are checked. */
type Rendered = (props: Record<string, unknown>) => ReactNode;

function pluginFetcher(pluginId: string) {
  return async (path: string, options?: { clusterId?: string }): Promise<unknown> => {
    const base = options?.clusterId
      ? `/api/v1/clusters/${encodeURIComponent(options.clusterId)}/p/${pluginId}`
      : `/api/v1/p/${pluginId}`;
    const response = await fetch(`${base}${path.startsWith('/') ? path : `/${path}`}`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const problem = (body ?? {}) as { detail?: unknown; title?: unknown };
      const text = typeof problem.detail === 'string' ? problem.detail : problem.title;
      throw new Error(typeof text === 'string' ? text : `HTTP ${String(response.status)}`);
    }
    return body;
  };
}

/** The SDK one plugin gets: frozen, its `ui` too, its fetchJson reaching only that plugin's routes. */
export function pluginSdk(pluginId: string) {
  return Object.freeze({
    version: PLUGIN_SDK_VERSION,
    h: createElement,
    useState,
    useEffect,
    fetchJson: pluginFetcher(pluginId),
    ui: Object.freeze({ Text, Badge, Stack, Group, Alert, Button, TextInput }),
  });
}

class PluginBoundary extends Component<{ name: string; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown error') };
  }

  override componentDidCatch(error: unknown) {
    console.warn(`Plugin ${this.props.name} failed`, error);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    const { error } = this.state;
    const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error';
    return (
      <Alert
        color="red"
        variant="light"
        title={`Plugin ${this.props.name} failed: ${message}`}
        data-testid="plugin-failed"
      >
        <Text size="sm">The rest of the page is not affected.</Text>
      </Alert>
    );
  }
}

/** Calls the plugin's render while React renders this, so what it throws reaches the boundary around it. */
function PluginRender({ render, props }: { render: Rendered; props: Record<string, unknown> }) {
  return <>{render(props)}</>;
}

function mounted(bundle: PluginBundle, id: string, title: string, render: Rendered, framed: boolean) {
  function PluginContribution(props: object) {
    const inner = (
      <PluginBoundary name={bundle.name}>
        <PluginRender render={render} props={{ ...props }} />
      </PluginBoundary>
    );
    if (!framed) return inner;
    return (
      <Paper withBorder p="md" radius="md" aria-label={title} data-plugin={bundle.id} data-contribution={id}>
        <Stack gap="xs">
          <Group gap="xs">
            <Text fw={600}>{title}</Text>
            <Badge size="xs" variant="outline" color="gray">
              plugin {bundle.name}
            </Badge>
          </Group>
          {inner}
        </Stack>
      </Paper>
    );
  }
  return PluginContribution;
}

const PAGE_SLOT_IDS: ReadonlySet<string> = new Set(PAGE_SLOTS);
/** Where a plugin's screen is listed: `nav.<group>`, one of the navbar's five groups. */
const SCREEN_SLOTS: ReadonlyMap<string, NavGroup> = new Map(NAV_GROUPS.map((group) => [`nav.${group}`, group]));

/** The href of a plugin's screen: /plugin/<plugin id>/<name>, the name being its id after `<plugin id>.`. */
function pluginScreenHref(pluginId: string, name: string): string {
  return `/plugin/${encodeURIComponent(pluginId)}/${encodeURIComponent(name)}`;
}
const ROW_MENU_SLOT_IDS: ReadonlySet<string> = new Set(ROW_MENU_KINDS.map((kind) => `${kind}.actions`));
// A plugin's row action may open, copy or operate; destroying stays with the built-in modules' confirmed commands.
const PLUGIN_ROW_SECTIONS: ReadonlySet<string> = new Set(ROW_MENU_SECTIONS.filter((section) => section !== 'Destroy'));

/** Why a row action is refused, or undefined when it may be offered. */
function rowActionRefusal(candidate: Record<string, unknown>): string | undefined {
  if (typeof candidate.label !== 'string' || candidate.label.trim() === '') return 'it has no label';
  if (typeof candidate.run !== 'function') return 'its run is not a function';
  const { section } = candidate;
  if (section !== undefined && (typeof section !== 'string' || !PLUGIN_ROW_SECTIONS.has(section)))
    return 'a plugin’s row action goes under Open, Copy or Operate';
  return undefined;
}

/** Why a contribution is refused, or undefined when it may be mounted. */
function refusal(bundle: PluginBundle, candidate: unknown): string | undefined {
  if (typeof candidate !== 'object' || candidate === null) return 'it is not an object';
  const { kind, slot, id, render, heading } = candidate as Record<string, unknown>;
  if (typeof slot !== 'string' || typeof id !== 'string') return 'it has no slot or id';
  if (!bundle.contributions.some((declared) => declared.kind === kind && declared.slot === slot && declared.id === id))
    return `its manifest does not declare ${String(kind)} ${id} in ${slot}`;
  if (slot.endsWith('.link')) return 'plugins may not contribute links';
  if (ROW_MENU_SLOT_IDS.has(slot))
    return kind === 'rowAction' ? rowActionRefusal(candidate as Record<string, unknown>) : 'only row actions go there';
  if ((kind === 'screen') !== SCREEN_SLOTS.has(slot)) return 'a screen goes to nav.<group>, and only screens do';
  if (kind === 'screen' && !id.startsWith(`${bundle.id}.`)) return `a screen's id starts with ${bundle.id}.`;
  if (kind === 'screen') return typeof render === 'function' ? undefined : 'its render is not a function';
  if (!PAGE_SLOT_IDS.has(slot)) return `${slot} is not a page slot`;
  if (slot === 'admin.tabs') return 'an admin tab needs a route of its own, which plugins have not';
  if (slot === 'settings.sections' && heading !== undefined && heading !== 'Plugins')
    return 'a plugin’s settings go under Plugins only';
  if (typeof render !== 'function') return 'its render is not a function';
  return undefined;
}

/** One bundle's UI as the console mounts it: what `contribute` answered and may be shown, the rest dropped. */
export function acceptBundle(bundle: PluginBundle, answer: unknown): ModuleUi {
  const accepted = Array.isArray(answer) ? answer.filter((candidate) => accepts(bundle, candidate)) : [];
  if (!Array.isArray(answer))
    console.warn(`Plugin ${bundle.id}: contribute() did not answer a list; nothing of it is shown`);
  const screens = accepted.filter((candidate) => (candidate as { kind?: unknown }).kind === 'screen');
  return {
    moduleId: `plugin:${bundle.id}`,
    contributions: accepted
      .filter((candidate) => !screens.includes(candidate))
      .map((candidate) => mount(bundle, candidate)),
    screens: screens.map((candidate) => pluginScreen(bundle, candidate as ScreenCandidate)),
    navigation: screens.map((candidate) => screenEntry(bundle, candidate as ScreenCandidate)),
  };
}

interface ScreenCandidate {
  readonly slot: string;
  readonly id: string;
  readonly title?: unknown;
  readonly order?: unknown;
  readonly render: Rendered;
}

const screenName = (bundle: PluginBundle, candidate: ScreenCandidate) => candidate.id.slice(bundle.id.length + 1);
const screenTitle = (bundle: PluginBundle, candidate: ScreenCandidate) =>
  typeof candidate.title === 'string' ? candidate.title : bundle.name;

function pluginScreen(bundle: PluginBundle, candidate: ScreenCandidate): PluginScreen {
  const title = screenTitle(bundle, candidate);
  return {
    name: screenName(bundle, candidate),
    title,
    component: mounted(bundle, candidate.id, title, candidate.render, false),
  };
}

function screenEntry(bundle: PluginBundle, candidate: ScreenCandidate): NavEntry {
  return {
    group: SCREEN_SLOTS.get(candidate.slot) ?? 'observe',
    label: screenTitle(bundle, candidate),
    href: pluginScreenHref(bundle.id, screenName(bundle, candidate)),
    order: typeof candidate.order === 'number' ? candidate.order : 1000,
  };
}

/** Whether a candidate may be mounted; a refused one is dropped with a warning that says why. */
function accepts(bundle: PluginBundle, candidate: unknown): boolean {
  const why = refusal(bundle, candidate);
  if (why) {
    const named = (candidate as { id?: unknown } | null)?.id;
    console.warn(`Plugin ${bundle.id}: contribution ${String(named)} dropped: ${why}`);
  }
  return why === undefined;
}

/** The contributions of one bundle's `contribute` answer that may be mounted; the rest are dropped with a warning. */
export function acceptContributions(bundle: PluginBundle, answer: unknown): Contribution[] {
  if (!Array.isArray(answer)) {
    console.warn(`Plugin ${bundle.id}: contribute() did not answer a list; nothing of it is shown`);
    return [];
  }
  return answer
    .filter((candidate: unknown) => accepts(bundle, candidate) && (candidate as { kind?: unknown }).kind !== 'screen')
    .map((candidate: unknown) => mount(bundle, candidate));
}

/** An accepted (checked) contribution as the console mounts it. */
function mount(bundle: PluginBundle, candidate: unknown): Contribution {
  const { slot, id, title, render, order } = candidate as {
    slot: string;
    id: string;
    title?: unknown;
    render: Rendered;
    order?: unknown;
  };
  const shown = typeof title === 'string' ? title : bundle.name;
  const base = { id: `plugin:${bundle.id}:${id}`, order: typeof order === 'number' ? order : 100 };
  if (ROW_MENU_SLOT_IDS.has(slot)) return rowAction(bundle, base, candidate as Record<string, unknown>);
  if (slot === 'settings.sections') {
    const component = mounted(bundle, id, shown, render, false) as ComponentType;
    return { ...base, slot, heading: 'Plugins', title: shown, component };
  }
  const component = mounted(bundle, id, shown, render, true);
  // A page slot other than the two shaped ones: a panel, whose props the slot's owner hands over.
  return { ...base, slot, title: shown, component } as Contribution;
}

/**
 * A plugin's row action as the row menus take it: its run gets the row's cluster and key (a copy of the row, never
 * the table's own object), and whatever it throws is said beside the menu instead of breaking the table.
 */
function rowAction(
  bundle: PluginBundle,
  base: { id: string; order: number },
  candidate: Record<string, unknown>,
): RowMenuContribution {
  const run = candidate.run as (target: { clusterId?: string; key: string; row: unknown }) => unknown;
  return {
    ...base,
    slot: candidate.slot as RowMenuSlotId,
    section: (candidate.section as RowMenuContribution['section'] | undefined) ?? 'Operate',
    label: `${String(candidate.label)} (${bundle.name})`,
    run: async (target: RowTarget) => {
      try {
        const answer = await run({
          ...(target.clusterId ? { clusterId: target.clusterId } : {}),
          key: target.key,
          row: structuredClone(target.row),
        });
        return typeof answer === 'string' ? answer : undefined;
      } catch (error) {
        return `Plugin ${bundle.name} failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  };
}

/** Imports one bundle and asks it what it contributes; a failure is logged and gives nothing. */
async function loadBundle(bundle: PluginBundle): Promise<ModuleUi | undefined> {
  try {
    const loaded = (await import(/* webpackIgnore: true */ bundle.url)) as {
      contribute?: unknown;
      sdk?: unknown;
    };
    if (loaded.sdk !== undefined && loaded.sdk !== PLUGIN_SDK_VERSION) {
      console.warn(
        `Plugin ${bundle.id}: built for SDK ${JSON.stringify(loaded.sdk)}, this console has ${PLUGIN_SDK_VERSION}`,
      );
      return undefined;
    }
    if (typeof loaded.contribute !== 'function') {
      console.warn(`Plugin ${bundle.id}: its bundle has no contribute(sdk); nothing of it is shown`);
      return undefined;
    }
    const answer: unknown = (loaded.contribute as (sdk: unknown) => unknown)(pluginSdk(bundle.id));
    return acceptBundle(bundle, answer);
  } catch (error) {
    console.warn(`Plugin ${bundle.id}: its UI bundle could not be loaded`, error);
    return undefined;
  }
}

async function loadPluginUis(): Promise<ModuleUi[]> {
  const response = await fetch(BUNDLES_URL, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) return [];
  const { items } = (await response.json()) as { items: PluginBundle[] };
  const loaded = await Promise.all(items.map(loadBundle));
  return loaded.filter((ui): ui is ModuleUi => ui !== undefined);
}

/** How long the console holds its first page for the plugins' bundles before showing it without them. */
const PLUGIN_UI_WAIT_MS = 3_000;

interface PluginUis {
  readonly uis: readonly ModuleUi[];
  /** The loading has ended (with bundles or none), so a plugin's screen knows when to stop waiting. */
  readonly loaded: boolean;
  /** Loaded, or waited for long enough: the page is shown, and a late bundle's contributions appear when it comes. */
  readonly settled: boolean;
}

/** The active plugins' UIs, loaded once when `ready` (the manifest has arrived); empty until then or on failure. */
export function usePluginUis(ready: boolean): PluginUis {
  const [state, setState] = useState<{ uis: readonly ModuleUi[]; loaded: boolean }>({ uis: [], loaded: false });
  // Counted from the console's mount, not from the manifest's arrival: a manifest that hangs holds no page either.
  const [waitedEnough, setWaitedEnough] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaitedEnough(true), PLUGIN_UI_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (!ready) return undefined;
    let current = true;
    loadPluginUis().then(
      (uis) => {
        if (current) setState({ uis, loaded: true });
      },
      (error: unknown) => {
        console.warn('Plugin UI bundles could not be listed', error);
        if (current) setState({ uis: [], loaded: true });
      },
    );
    return () => {
      current = false;
    };
  }, [ready]);
  return useMemo(() => ({ ...state, settled: state.loaded || waitedEnough }), [state, waitedEnough]);
}
