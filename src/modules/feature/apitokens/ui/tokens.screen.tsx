'use client';
// Account → API tokens: the viewer's own tokens, a form that creates one and shows it exactly once, and revoke
// by press-and-hold. The list is small and unpaged on the server, so search and paging happen here.
import { Alert, Button, Code, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type SyntheticEvent } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { tokenColumns, type TokenRow } from './token-columns.tsx';

type TokensInput = RouterInputs['apitokens']['list'];

interface CreatedToken {
  readonly name: string;
  readonly token: string;
}

function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const create = useMutation(
    trpc.apitokens.create.mutationOptions({
      onSuccess: (result) => {
        if (result.token) onCreated({ name: result.name, token: result.token });
        setName('');
        setExpiresOn('');
        return queryClient.invalidateQueries(trpc.apitokens.pathFilter());
      },
    }),
  );
  const fieldError = (field: string) =>
    create.isError ? problemOf(create.error).errors?.find((error) => error.field === field)?.message : undefined;
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    // A date means "until the end of that day" in the viewer's zone.
    const expiresAt = expiresOn ? new Date(`${expiresOn}T23:59:59`).toISOString() : undefined;
    create.mutate({ name, expiresAt });
  };
  return (
    <form onSubmit={submit} aria-label="Create API token">
      <Group align="flex-start" gap="sm">
        <TextInput
          label="Name"
          description="What the token is for, e.g. the script that uses it"
          required
          maxLength={100}
          value={name}
          error={fieldError('name')}
          onChange={(event) => setName(event.currentTarget.value)}
          w={280}
        />
        <TextInput
          type="date"
          label="Expires on"
          description="Optional; without a date it never expires"
          value={expiresOn}
          error={fieldError('expiresAt')}
          onChange={(event) => setExpiresOn(event.currentTarget.value)}
          w={220}
        />
        <Button type="submit" mt={44} loading={create.isPending}>
          Create token
        </Button>
      </Group>
      {create.isError && !fieldError('name') && !fieldError('expiresAt') && <ProblemView error={create.error} />}
    </form>
  );
}

function NewToken({ created, onDismiss }: { created: CreatedToken; onDismiss: () => void }) {
  return (
    <Alert
      color="teal"
      title={`Token "${created.name}" created`}
      data-testid="new-token"
      withCloseButton
      onClose={onDismiss}
    >
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          Copy it now: you will not see it again.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code data-testid="new-token-value" style={{ overflowWrap: 'anywhere' }}>
            {created.token}
          </Code>
          <CopyButton value={created.token}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}

function RevokeToken({ row }: { row: TokenRow }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.apitokens.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.apitokens.pathFilter()),
    }),
  );
  return (
    <Stack gap={4}>
      <HoldToConfirm
        action="Revoke"
        count={1}
        noun={['token', 'tokens']}
        disabled={revoke.isPending}
        onConfirm={() => revoke.mutate({ id: row.id })}
      />
      {revoke.isError && <ProblemView error={revoke.error} />}
    </Stack>
  );
}

export function TokensScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: '-createdAt' });
  const input = { ...listInput(list.state), sort: list.state.sort as TokensInput['sort'] };
  const query = useQuery({ ...trpc.apitokens.list.queryOptions(input), placeholderData: keepPreviousData });
  const [created, setCreated] = useState<CreatedToken | undefined>(undefined);
  const columns = useMemo(() => tokenColumns((row) => <RevokeToken row={row} />), []);

  return (
    <>
      <PageHeader
        title="API tokens"
        description={
          <>
            Personal tokens for scripts and agents. A token acts as you; send it as{' '}
            <Code>Authorization: Bearer &lt;token&gt;</Code>.
          </>
        }
      />
      <Stack gap="lg">
        <PageSection title="Create a token" description="The token is shown once, right after it is created.">
          <CreateTokenForm onCreated={setCreated} />
          {created && <NewToken created={created} onDismiss={() => setCreated(undefined)} />}
        </PageSection>
        <DataTable
          tableId="api-tokens"
          label="API tokens"
          columns={columns}
          rowKey={(row) => row.id}
          list={list}
          query={query}
          searchPlaceholder="Search tokens"
          empty={{ title: 'No API tokens', description: 'Create one above to call the API from a script.' }}
        />
      </Stack>
    </>
  );
}
