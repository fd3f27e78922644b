'use client';
// Every module's routes stay registered; when the module owning the current path is off, the page explains
// that instead of rendering a screen whose API would answer `feature-disabled`.
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { INSTALLED_UI } from '@/installation/ui.ts';
import { useConsoleUi } from '../slots/console-ui-context.ts';
import { routeOwner } from '../slots/resolve-ui.ts';
import { FeatureOffPage } from './feature-off-page.tsx';

export function FeatureGate({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const { manifest } = useConsoleUi();
  const owner = routeOwner(INSTALLED_UI, pathname);
  // Until the manifest arrives we cannot know; the screen's own loading state covers that moment.
  if (!owner || !manifest) return children;
  const entry = manifest.modules.find((candidate) => candidate.id === owner);
  if (entry?.enabled) return children;
  return (
    <FeatureOffPage
      title={entry?.title ?? owner}
      enablingProperty={entry?.enablingProperty ?? `flotilla.features.${owner}.enabled`}
      installed={entry !== undefined}
    />
  );
}
