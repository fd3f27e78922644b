// The screens the command palette offers are the ones the shell shows: Home, the navbar's entries of enabled modules
// (the same `navigationGroups` the navbar renders), Admin and the admin tabs (the same `admin.tabs` contributions the
// admin area renders). Nothing is listed here by hand but the two fixed entries the navbar draws itself.
import { IconHome, IconSettingsCog } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { ModuleUi } from '../slots/contribution-types.ts';
import { contributionsFor, navigationGroups } from '../slots/resolve-ui.ts';
import { ADMIN_GROUPS } from '../slots/slot-ids.ts';

interface PaletteScreen {
  readonly label: string;
  /** Where the navbar shows it: a navigation group's label, or `Admin · <group>`. */
  readonly where: string;
  readonly href: string;
  readonly icon?: ComponentType<{ size?: number; stroke?: number }>;
}

export function paletteScreens(enabled: readonly ModuleUi[]): PaletteScreen[] {
  const navbar = navigationGroups(enabled).flatMap((group) =>
    group.entries.map((entry) => ({ label: entry.label, where: group.label, href: entry.href, icon: entry.icon })),
  );
  const tabs = contributionsFor(enabled, 'admin.tabs');
  const admin = ADMIN_GROUPS.flatMap((group) =>
    tabs
      .filter((tab) => tab.group === group)
      .map((tab) => ({ label: tab.label, where: `Admin · ${group}`, href: tab.href })),
  );
  return [
    { label: 'Home', where: 'Console', href: '/', icon: IconHome },
    ...navbar,
    { label: 'Admin', where: 'Console', href: '/admin', icon: IconSettingsCog },
    ...admin,
  ];
}

/**
 * Screens whose name (or the group they sit in) holds every word of the query, in any case; those whose name starts
 * with the query come first, otherwise the navbar's order is kept. An empty query lists them all.
 */
export function matchScreens(screens: readonly PaletteScreen[], query: string): PaletteScreen[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...screens];
  const prefix = query.trim().toLowerCase();
  const matching = screens.filter((screen) => {
    const text = `${screen.label} ${screen.where}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const startsWith = (screen: PaletteScreen) => screen.label.toLowerCase().startsWith(prefix);
  return [...matching.filter(startsWith), ...matching.filter((screen) => !startsWith(screen))];
}
