'use client';
// New channel (no channel) or Edit: name, kind and the kind's configuration; previewed by a dry run, then saved. A
// saved configuration cannot be read back, so Edit replaces it only when asked.
import { Alert, Button, Group, Modal, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { ChannelRow } from './channel-row.ts';
import { SchemaForm } from './schema-form.tsx';
import { useChannelDraft } from './use-channel-draft.ts';

export function ChannelDialog({ channel, onClose }: { channel: ChannelRow | undefined; onClose: () => void }) {
  const draft = useChannelDraft(channel);
  const { missing, busy } = draft;
  return (
    <Modal
      opened
      onClose={onClose}
      title={channel ? `Edit ${channel.name}` : 'New channel'}
      size="lg"
      data-testid="channel-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          value={draft.name}
          onChange={(event) => draft.setName(event.currentTarget.value)}
        />
        {channel && (
          <Switch
            label={`Replace the configuration (now sending to ${channel.target})`}
            checked={draft.replaceConfig}
            onChange={(event) => draft.setReplaceConfig(event.currentTarget.checked)}
          />
        )}
        {draft.replaceConfig && (
          <>
            <SegmentedControl
              aria-label="Kind"
              value={draft.chosenKind}
              data={draft.kinds.map((item) => item.kind)}
              onChange={draft.pickKind}
            />
            <SchemaForm schema={draft.schema} values={draft.values} onChange={draft.setValues} />
          </>
        )}
        {missing.length > 0 && (
          <Text size="xs" c="dimmed">
            Still needed: {missing.join(', ')}.
          </Text>
        )}
        {draft.preview && !draft.saved && (
          <Alert variant="light" color="blue" data-testid="channel-preview">
            {draft.preview}
          </Alert>
        )}
        {draft.error && <ProblemView error={draft.error} />}
        {draft.saved ? (
          <>
            <Alert variant="light" color="teal" data-testid="channel-saved">
              Saved.
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
            </Group>
          </>
        ) : (
          <Group>
            <Button variant="default" disabled={missing.length > 0} loading={busy} onClick={() => draft.submit(true)}>
              Preview
            </Button>
            <Button disabled={missing.length > 0} loading={busy} onClick={() => draft.submit(false)}>
              {channel ? 'Save' : 'Create channel'}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
