'use client';
// A plugin's settings live here, under Plugins, and nowhere else (spec: plugin settings only under Plugins).
import { Button, Code, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PluginRow } from './plugin-columns.tsx';

type Setting = PluginRow['settings'][number];

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

function parsed(type: string, text: string): unknown {
  if (type === 'number' || type === 'integer') return Number(text);
  if (type === 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function SettingRow({ pluginId, setting }: { pluginId: string; setting: Setting }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState(shown(setting.value));
  const save = useMutation(trpc.plugins.setSetting.mutationOptions());
  const change = (value: unknown) =>
    save.mutate(
      { id: pluginId, key: setting.key, value },
      { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.plugins.pathKey() }) },
    );
  return (
    <Stack gap={4} data-testid="plugin-setting" data-key={setting.key}>
      <Group gap="xs">
        <Code>{setting.key}</Code>
        <Text size="xs" c="dimmed">
          {setting.type} · default {shown(setting.default)}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {setting.description}
      </Text>
      {setting.type === 'boolean' ? (
        <Switch
          checked={setting.value === true}
          onChange={(event) => change(event.currentTarget.checked)}
          label={setting.value === true ? 'On' : 'Off'}
        />
      ) : (
        <Group gap="xs" align="flex-start">
          <TextInput
            aria-label={setting.key}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            w={420}
            error={save.error ? (problemOf(save.error).detail ?? problemOf(save.error).title) : undefined}
          />
          <Button
            variant="light"
            onClick={() => change(parsed(setting.type, text))}
            loading={save.isPending}
            disabled={text === shown(setting.value)}
          >
            Save
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export function PluginSettings({ plugins }: { plugins: readonly PluginRow[] }) {
  const withSettings = plugins.filter((plugin) => plugin.settings.length > 0 && plugin.state !== 'UNINSTALLED');
  return (
    <Stack gap="md">
      {withSettings.length === 0 && (
        <Text size="sm" c="dimmed">
          No installed plugin has settings.
        </Text>
      )}
      {withSettings.map((plugin) => (
        <Stack key={plugin.id} gap="sm" aria-label={`${plugin.name} settings`}>
          <Title order={4} fz="h5">
            {plugin.name}
          </Title>
          {plugin.settings.map((setting) => (
            <SettingRow key={`${setting.key}:${shown(setting.value)}`} pluginId={plugin.id} setting={setting} />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
