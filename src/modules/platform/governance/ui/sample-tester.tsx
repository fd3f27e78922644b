'use client';
// "Test a sample payload": what a caller without message:clear and one with it would see of a message under the
// draft, side by side, with every hidden value's class and what hid it. Changes nothing.
import {
  Badge,
  Button,
  Code,
  Group,
  List,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { draftBody, type Catalogue, type Draft } from './policy-draft.ts';

type View = RouterOutputs['governance']['test']['masked'];

const SAMPLE = JSON.stringify(
  {
    order: 'ORD-1001',
    customer: { name: 'Jane Doe', email: 'jane@example.com', phone: '+44 20 7946 0958' },
    card: '4111 1111 1111 1111',
    note: 'token Bearer abc123def456',
  },
  null,
  2,
);

function bodyText(view: View): string {
  if (view.body.kind === 'empty') return '(empty)';
  if (view.body.kind === 'withheld') return `withheld: ${view.body.reason}`;
  return view.body.kind === 'json' ? JSON.stringify(view.body.value, null, 2) : view.body.value;
}

function ViewPanel({ title, view, testId }: { title: string; view: View; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Stack gap="xs">
        <Text fw={600}>{title}</Text>
        <Code block fz="xs" data-testid={`${testId}-body`}>
          {bodyText(view)}
        </Code>
        {Object.keys(view.properties).length > 0 && (
          <Code block fz="xs">
            {JSON.stringify(view.properties, null, 2)}
          </Code>
        )}
        <List size="xs" spacing={2}>
          {view.redactions.map((redaction) => (
            <List.Item key={`${redaction.location}-${redaction.by}`}>
              <Badge size="xs" variant="light" color={redaction.action === 'clear' ? 'orange' : 'gray'} mr={6}>
                {redaction.action === 'clear' ? 'shown, sensitive' : redaction.action}
              </Badge>
              {redaction.dataClass} at {redaction.location} ({redaction.by})
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}

export function SampleTester({ draft, catalogue }: { draft: Draft; catalogue: Catalogue }) {
  const trpc = useTRPC();
  const test = useMutation(trpc.governance.test.mutationOptions());
  const [body, setBody] = useState(SAMPLE);
  const [contentType, setContentType] = useState<string | null>('application/json');
  const [address, setAddress] = useState('orders');
  const [properties, setProperties] = useState('{ "customer-email": "jane@example.com" }');
  let parsedProperties: Record<string, unknown> | undefined;
  try {
    parsedProperties = JSON.parse(properties || '{}') as Record<string, unknown>;
  } catch {
    parsedProperties = undefined;
  }
  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Address"
          w={180}
          value={address}
          onChange={(event) => setAddress(event.currentTarget.value)}
        />
        <Select
          label="Content type"
          w={190}
          data={['application/json', 'application/xml', 'text/plain']}
          value={contentType}
          onChange={setContentType}
          clearable
          placeholder="guess"
        />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Textarea
          label="Body"
          autosize
          minRows={6}
          maxRows={16}
          value={body}
          onChange={(event) => setBody(event.currentTarget.value)}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Textarea
          label="Properties (JSON)"
          autosize
          minRows={6}
          maxRows={16}
          value={properties}
          onChange={(event) => setProperties(event.currentTarget.value)}
          error={parsedProperties ? undefined : 'not JSON'}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
      </SimpleGrid>
      <Group>
        <Button
          disabled={!parsedProperties}
          loading={test.isPending}
          onClick={() =>
            test.mutate({
              address: address || undefined,
              body,
              ...(contentType ? { contentType } : {}),
              properties: parsedProperties ?? {},
              draft: draftBody(draft, catalogue),
            })
          }
        >
          Test with this draft
        </Button>
      </Group>
      {test.isError && <ProblemView error={test.error} />}
      {test.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <ViewPanel title="Without message:clear" view={test.data.masked} testId="view-masked" />
          <ViewPanel
            title={`With message:clear (${test.data.clearRoles.join(', ') || 'no role holds it'})`}
            view={test.data.clear}
            testId="view-clear"
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}
