'use client';
// One setting: what it does, its rule, where its value comes from, and an input that saves through
// PUT-equivalent `settings.update`. A refused value shows the server's message under the input; its history opens
// below it.
import { Anchor, Badge, Button, Code, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { SettingHistory } from './setting-history.tsx';

export type SettingView = RouterOutputs['settings']['list']['items'][number];
type Value = SettingView['value'];

function ValueInput({
  setting,
  value,
  error,
  onChange,
  disabled,
}: {
  setting: SettingView;
  value: Value;
  error: string | undefined;
  onChange: (value: Value) => void;
  disabled: boolean;
}) {
  const common = { 'aria-label': setting.key, error, disabled, w: 220 } as const;
  if (setting.kind === 'boolean')
    return (
      <Switch
        aria-label={setting.key}
        checked={value === true}
        onChange={(event) => onChange(event.currentTarget.checked)}
        disabled={disabled}
        error={error}
        label={value === true ? 'On' : 'Off'}
      />
    );
  if (setting.kind === 'integer')
    return (
      <NumberInput
        {...common}
        value={typeof value === 'number' ? value : String(value)}
        onChange={(next) => onChange(typeof next === 'number' ? next : next === '' ? '' : Number(next))}
        allowDecimal={false}
      />
    );
  return <TextInput {...common} value={String(value)} onChange={(event) => onChange(event.currentTarget.value)} />;
}

export function SettingEditor({ setting }: { setting: SettingView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<Value>(setting.value);
  const [serverValue, setServerValue] = useState<Value>(setting.value);
  const [historyOpen, setHistoryOpen] = useState(false);
  // Someone changed it elsewhere: follow, unless the viewer is in the middle of editing.
  if (setting.value !== serverValue) {
    setServerValue(setting.value);
    if (value === serverValue) setValue(setting.value);
  }
  const update = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.settings.pathFilter()),
    }),
  );
  const reset = useMutation(
    trpc.settings.reset.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.settings.pathFilter()),
    }),
  );
  const problem = update.error ? problemOf(update.error) : undefined;
  const error = problem
    ? (problem.errors?.map((entry) => entry.message).join('; ') ?? problem.detail ?? problem.title)
    : undefined;
  const isChanged = value !== setting.value;
  const isLocked = setting.overriddenBy !== null;

  return (
    <Group
      justify="space-between"
      align="flex-start"
      wrap="nowrap"
      py="sm"
      data-setting={setting.key}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs">
          <Code fw={600}>{setting.key}</Code>
          {setting.appliesAt === 'restart' && (
            <Badge size="sm" variant="light" color="yellow">
              applies at restart
            </Badge>
          )}
          <Badge size="sm" variant="outline" color={setting.source === 'default' ? 'gray' : 'indigo'}>
            {setting.source === 'default' ? 'default' : `set in ${setting.source}`}
          </Badge>
          {setting.declaredBy && (
            <Badge size="sm" variant="light" color="grape" data-testid="setting-plugin">
              plugin {setting.declaredBy}
            </Badge>
          )}
        </Group>
        <Text size="sm">{setting.description}</Text>
        <Text size="xs" c="dimmed">
          Must be {setting.rule}. Default <Code>{String(setting.defaultValue)}</Code>
          {setting.appliesAt === 'restart' && setting.inEffect !== setting.value && (
            <>
              ; in effect now <Code>{String(setting.inEffect)}</Code>
            </>
          )}
          {setting.updatedAt && (
            <>
              . Changed by {setting.updatedBy ?? 'someone'} <TimeAgo iso={setting.updatedAt} />
            </>
          )}
          {isLocked && <>. Set by the environment variable {setting.overriddenBy}, so it cannot be changed here.</>}
        </Text>
        <Anchor
          component="button"
          type="button"
          size="xs"
          w="fit-content"
          aria-expanded={historyOpen}
          onClick={() => setHistoryOpen((open) => !open)}
        >
          {historyOpen ? 'Hide history' : 'History'}
        </Anchor>
        {historyOpen && <SettingHistory settingKey={setting.key} />}
      </Stack>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({ key: setting.key, value });
        }}
      >
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <ValueInput
            setting={setting}
            value={value}
            error={error}
            disabled={isLocked}
            onChange={(next) => {
              setValue(next);
              update.reset();
            }}
          />
          <Button type="submit" disabled={!isChanged || isLocked} loading={update.isPending} variant="light">
            Save
          </Button>
          {setting.source === 'database' && !isLocked && (
            <Button
              variant="subtle"
              color="gray"
              loading={reset.isPending}
              onClick={() => {
                setValue(setting.defaultValue);
                reset.mutate({ key: setting.key });
              }}
            >
              Reset to default
            </Button>
          )}
          {update.isSuccess && !isChanged && (
            <Group gap={4} c="teal" data-testid="saved" mt={8}>
              <IconCheck size={16} />
              <Text size="sm">Saved</Text>
            </Group>
          )}
        </Group>
      </form>
    </Group>
  );
}
