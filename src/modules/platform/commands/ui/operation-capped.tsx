'use client';
// A real run the server refused over the bulk cap: nothing was done; the cap may be overridden for this one
// operation, which is held to confirm again.
import { Alert, Checkbox, Group, Stack, Text } from '@mantine/core';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { formatCount } from './command-nodes.tsx';
import type { OperationSpec } from './operation-spec.ts';

export function OperationCapped({
  affectedCount,
  cap,
  hold,
  override,
  onOverride,
  onConfirm,
}: {
  affectedCount: number;
  cap: number;
  hold: OperationSpec['hold'];
  override: boolean;
  onOverride: (override: boolean) => void;
  onConfirm: () => void;
}) {
  return (
    <Stack gap="sm" data-testid="operation-capped">
      <Alert color="orange" variant="light" title="Over the bulk cap: nothing was done">
        <Text size="sm">
          It would affect {formatCount(affectedCount)} {affectedCount === 1 ? 'message' : 'messages'}, over the bulk cap
          of {formatCount(cap)} (safety.bulk-cap). The refusal is in the audit log.
        </Text>
      </Alert>
      <Checkbox
        label={`Override the cap for this operation (${formatCount(affectedCount)} at once)`}
        checked={override}
        onChange={(event) => onOverride(event.currentTarget.checked)}
      />
      {hold && (
        <Group justify="flex-end">
          <HoldToConfirm
            action={hold.action}
            count={hold.count ?? affectedCount}
            noun={hold.noun}
            disabled={!override}
            onConfirm={onConfirm}
          />
        </Group>
      )}
    </Stack>
  );
}
