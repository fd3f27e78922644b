import { Alert, Code, Stack, Text } from '@mantine/core';
import { IconPlugOff } from '@tabler/icons-react';
import { PageHeader } from '../parts/page-header.tsx';

/** What a deep link to a disabled (or not installed) module's screen shows instead of the screen. */
export function FeatureOffPage({
  title,
  enablingProperty,
  installed,
}: {
  title: string;
  enablingProperty: string;
  installed: boolean;
}) {
  const environment = enablingProperty.replace(/[.-]/g, '_').toUpperCase();
  return (
    <Stack data-testid="feature-off">
      <PageHeader
        title={title}
        description={installed ? 'This feature is turned off.' : 'This feature is not installed.'}
      />
      <Alert variant="light" color="gray" icon={<IconPlugOff size={20} />} title={`${title} is off`} maw={720}>
        <Stack gap="xs">
          <Text size="sm">
            Turn it on by setting <Code data-testid="enabling-property">{enablingProperty}</Code> to <Code>true</Code>{' '}
            (or unsetting it), then restart Flotilla.
          </Text>
          <Text size="sm" c="dimmed">
            Either in the environment (<Code>{environment}=true</Code>) or as a startup property through Settings.
          </Text>
        </Stack>
      </Alert>
    </Stack>
  );
}
