'use client';
// The permission catalogue grouped by module, each permission with what it allows; checkboxes when the role can
// be changed, a read-only list when it cannot (built-in roles). A running plugin's permission is marked with it.
import { Badge, Checkbox, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useManifest, type Manifest } from '@/ui/data/manifest.ts';

type Permission = Manifest['permissions'][number];

interface ModulePermissions {
  readonly moduleId: string;
  readonly title: string;
  readonly permissions: readonly Permission[];
}

function groupByModule(manifest: Manifest): ModulePermissions[] {
  const titles = new Map(manifest.modules.map((module) => [module.id, module.title]));
  const groups = new Map<string, Permission[]>();
  for (const permission of manifest.permissions) {
    groups.set(permission.module, [...(groups.get(permission.module) ?? []), permission]);
  }
  return [...groups].map(([moduleId, permissions]) => ({
    moduleId,
    title: titles.get(moduleId) ?? moduleId,
    permissions,
  }));
}

export function PermissionPicker({
  value,
  onChange,
  readOnly,
  error,
}: {
  value: readonly string[];
  onChange?: (next: string[]) => void;
  readOnly?: boolean;
  error?: string;
}) {
  const manifest = useManifest();
  if (!manifest.data) return null;
  const held = new Set(value);
  // Read-only stays fully legible (not greyed out): the checkboxes are controlled and simply do not change.
  const toggle = (id: string, on: boolean) => {
    if (!readOnly) onChange?.(on ? [...value, id] : value.filter((permission) => permission !== id));
  };
  return (
    <Stack gap="xs" role="group" aria-label="Permissions">
      <Text size="sm" fw={500}>
        Permissions
      </Text>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {groupByModule(manifest.data).map((group) => (
          <Paper key={group.moduleId} withBorder p="sm" radius="md" data-permission-module={group.moduleId}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={6}>
              {group.title}
            </Text>
            <Stack gap={6}>
              {group.permissions.map((permission) => (
                <Checkbox
                  key={permission.id}
                  aria-readonly={readOnly}
                  checked={held.has(permission.id)}
                  onChange={(event) => toggle(permission.id, event.currentTarget.checked)}
                  label={
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" ff="monospace">
                        {permission.id}
                      </Text>
                      {!permission.enabled && (
                        <Badge size="xs" variant="outline" color="gray">
                          module off
                        </Badge>
                      )}
                      {permission.source !== undefined && (
                        <Badge size="xs" variant="light" color="grape" title="Exists while this plugin runs">
                          plugin {permission.source}
                        </Badge>
                      )}
                    </Group>
                  }
                  description={permission.description}
                />
              ))}
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
