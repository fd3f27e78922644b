// Pure functions from (installed UI, manifest) to what the shell shows. A disabled or unknown module contributes
// no navigation and no slot contributions, but still owns its routes so a deep link can explain why it is off.
import type { Contribution, ContributionFor, ModuleUi, NavEntry, RowTarget } from './contribution-types.ts';
import { mostSpecificOwner, prefixMatch } from '@/base/path-prefix.ts';
import { NAV_GROUP_LABELS, NAV_GROUPS, type LinkKind, type NavGroup } from './slot-ids.ts';

export interface ManifestModule {
  readonly id: string;
  readonly title: string;
  readonly enabled: boolean;
  readonly enablingProperty: string;
  readonly topics: readonly string[];
}

export interface NavGroupView {
  readonly group: NavGroup;
  readonly label: string;
  readonly entries: readonly NavEntry[];
}

export function enabledModuleUis(installed: readonly ModuleUi[], modules: readonly ManifestModule[]): ModuleUi[] {
  const enabled = new Set(modules.filter((module) => module.enabled).map((module) => module.id));
  return installed.filter((ui) => enabled.has(ui.moduleId));
}

const byOrder = <Item extends { readonly order?: number }>(items: Item[]): Item[] =>
  items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.order ?? 0) - (b.item.order ?? 0) || a.index - b.index)
    .map(({ item }) => item);

/** The fixed groups in their fixed order; a group nobody contributes to is left out. */
export function navigationGroups(uis: readonly ModuleUi[]): NavGroupView[] {
  const entries = uis.flatMap((ui) => ui.navigation ?? []);
  return NAV_GROUPS.map((group) => ({
    group,
    label: NAV_GROUP_LABELS[group],
    entries: byOrder(entries.filter((entry) => entry.group === group)),
  })).filter((view) => view.entries.length > 0);
}

export function contributionsFor<Slot extends Contribution['slot']>(
  uis: readonly ModuleUi[],
  slot: Slot,
): ContributionFor<Slot>[] {
  const all = uis.flatMap((ui) => ui.contributions ?? []);
  return byOrder(all.filter((contribution): contribution is ContributionFor<Slot> => contribution.slot === slot));
}

/** The module whose route prefix matches the path most specifically, whether or not it is enabled. Prefixes may
 *  hold `{name}` segments, e.g. `/clusters/{clusterId}/queues`. */
export function routeOwner(installed: readonly ModuleUi[], pathname: string): string | undefined {
  return mostSpecificOwner(
    pathname,
    installed.map((ui) => ({ owner: ui.moduleId, prefixes: ui.routes ?? [] })),
  );
}

/** The navigation entry a page belongs to: of the module owning the route, the entry whose href matches best (else
 *  its first), so `/clusters/<id>/queues` marks Queues rather than Clusters. */
/**
 * A cluster's page of a kind (`/clusters/42/consumers/…`) belongs to the entry of that kind (`/consumers`) when
 * the owning module has several entries: 0 when the entry's one segment is a segment of the path, else -1.
 */
function segmentMatch(pathname: string, href: string): number {
  const [only, ...rest] = href.split('/').filter(Boolean);
  return only !== undefined && rest.length === 0 && pathname.split('/').includes(only) ? 0 : -1;
}

export function activeNavHref(uis: readonly ModuleUi[], pathname: string): string | undefined {
  const owner = routeOwner(uis, pathname);
  const candidates = uis
    .filter((ui) => owner === undefined || ui.moduleId === owner)
    .flatMap((ui) => ui.navigation ?? []);
  const scored = candidates
    .map((entry) => ({ entry, score: prefixMatch(pathname, entry.href) ?? segmentMatch(pathname, entry.href) }))
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  return best && (best.score >= 0 || owner !== undefined) ? best.entry.href : undefined;
}

/** Where a row's name links to: the first `<kind>.link` contribution of an enabled module, if any. */
export function linkHref(uis: readonly ModuleUi[], kind: LinkKind, target: RowTarget): string | undefined {
  return contributionsFor(uis, `${kind}.link`)[0]?.href(target);
}

/** Every topic of every enabled module, for the one stream connection of a layout. */
export function enabledTopics(modules: readonly ManifestModule[]): string[] {
  return [...new Set(modules.filter((module) => module.enabled).flatMap((module) => module.topics))].sort();
}
