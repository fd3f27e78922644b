'use client';
// A write button with its gate: disabled with the reason when the cluster's writes are unavailable, marked when its
// capability ledger has not confirmed them yet.
import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { GateIcon, GateTooltip, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';

export function GatedButton({
  gate,
  icon,
  colour,
  onClick,
  children,
}: {
  gate: CapabilityGate;
  icon: ReactNode;
  colour?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <GateTooltip gate={gate}>
      <Button
        size="xs"
        variant={colour ? 'light' : 'filled'}
        color={colour}
        leftSection={icon}
        rightSection={<GateIcon gate={gate} />}
        disabled={gate.disabled}
        onClick={onClick}
      >
        {children}
      </Button>
    </GateTooltip>
  );
}
