// A broker configuration snippet with a copy button: advice an operator pastes into broker.xml and friends.
import { Button, Code, CopyButton, Stack } from '@mantine/core';

export function ConfigSnippet({ snippet }: { snippet: string }) {
  return (
    <Stack gap={4} align="flex-start">
      <Code block style={{ whiteSpace: 'pre-wrap', width: '100%' }} data-testid="config-snippet">
        {snippet}
      </Code>
      <CopyButton value={snippet}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="light" onClick={copy}>
            {copied ? 'Copied' : 'Copy snippet'}
          </Button>
        )}
      </CopyButton>
    </Stack>
  );
}
