import { Stack, Text } from '@mantine/core';

/** A user as tables show them: the username, and the display name under it when there is one. */
export function UserName({ username, displayName }: { username: string; displayName: string | null }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {username}
      </Text>
      {displayName && (
        <Text size="xs" c="dimmed">
          {displayName}
        </Text>
      )}
    </Stack>
  );
}
