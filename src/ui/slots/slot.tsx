'use client';
// Renders the contributions of enabled modules to a panel slot, e.g. <Slot id="home.empty" props={{}} />.
import type { ComponentType, ReactNode } from 'react';
import type { ContributionFor, PanelContribution, PanelSlotId, PanelSlotProps } from './contribution-types.ts';
import { useConsoleUi } from './console-ui-context.ts';
import { contributionsFor } from './resolve-ui.ts';
import type { Contribution } from './contribution-types.ts';

export function useContributions<Slot extends Contribution['slot']>(slot: Slot): ContributionFor<Slot>[] {
  return contributionsFor(useConsoleUi().enabled, slot);
}

export function Slot<Id extends PanelSlotId>({
  id,
  props,
  fallback,
}: {
  id: Id;
  props: PanelSlotProps[Id];
  /** Shown when no enabled module contributes. */
  fallback?: ReactNode;
}) {
  // Narrowing a union by a generic slot id is beyond TypeScript; every panel slot's contribution has a component.
  const contributions = useContributions(id) as PanelContribution[];
  if (contributions.length === 0) return fallback ?? null;
  return (
    <>
      {contributions.map((contribution) => {
        const Component = contribution.component as ComponentType<PanelSlotProps[Id]>;
        return <Component key={contribution.id} {...props} />;
      })}
    </>
  );
}
