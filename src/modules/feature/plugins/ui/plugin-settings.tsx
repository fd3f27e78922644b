'use client';
// A plugin's settings and their values, read-only: they are changed in one place, the settings screen, where a running
// plugin's settings are under Plugins with their history (one editor, one audit trail).
import { Anchor, Code, Group, Stack, Text, Title } from '@mantine/core';
import Link from 'next/link';
import type { PluginRow } from './plugin-columns.tsx';

type Setting = PluginRow['settings'][number];

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

function SettingRow({ setting }: { setting: Setting }) {
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
      <Text size="sm">
        Value <Code data-testid="plugin-setting-value">{shown(setting.value)}</Code>
      </Text>
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
          <Group gap="sm">
            <Title order={4} fz="h5">
              {plugin.name}
            </Title>
            {plugin.state === 'ACTIVE' ? (
              <Anchor component={Link} href={`/settings?q=${encodeURIComponent(`${plugin.id}.`)}`} size="sm">
                Change in Settings
              </Anchor>
            ) : (
              <Text size="xs" c="dimmed">
                Changed in Settings while it runs
              </Text>
            )}
          </Group>
          {plugin.settings.map((setting) => (
            <SettingRow key={setting.key} setting={setting} />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
