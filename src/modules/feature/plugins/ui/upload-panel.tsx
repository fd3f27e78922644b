'use client';
// Upload a plugin archive (.zip): read here into base64 and sent with the step-up (the password typed again, or a
// fresh sign-in at the account's identity provider: step-up-field.tsx). The server
// validates it without running anything; a refused archive shows every finding. "Check only" validates and stores
// nothing.
import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { FindingsList, findingsOf } from './findings-list.tsx';
import { StepUpField, stepUpOf, useAccountProvider } from './step-up-field.tsx';

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

export function UploadPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const provider = useAccountProvider();
  const stepUp = stepUpOf(provider, password);
  const upload = useMutation(trpc.plugins.upload.mutationOptions());
  const send = async (dryRun: boolean) => {
    if (!file) return;
    upload.mutate(
      { archive: await base64Of(file), dryRun, ...(stepUp.password ? { password: stepUp.password } : {}) },
      { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.plugins.pathKey() }) },
    );
  };
  const problem = upload.error ? problemOf(upload.error) : undefined;
  return (
    <PageSection
      title="Upload"
      description="A plugin archive (.zip, as npm run plugin:pack makes it). It is validated without running anything and stored, not started: activate it below."
    >
      <Stack gap="sm">
        <Group align="flex-end" gap="sm">
          <FileInput
            label="Archive"
            placeholder="Choose a .zip"
            accept=".zip,application/zip"
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              upload.reset();
            }}
            clearable
            w={320}
            data-testid="plugin-archive"
          />
          <StepUpField
            provider={provider}
            password={password}
            onPassword={setPassword}
            description="Step-up: typed again"
            width={240}
          />
          <Button
            leftSection={<IconUpload size={16} aria-hidden />}
            onClick={() => void send(false)}
            disabled={!file || !stepUp.ready}
            loading={upload.isPending && !upload.variables.dryRun}
          >
            Upload
          </Button>
          <Button
            variant="default"
            onClick={() => void send(true)}
            disabled={!file || !stepUp.ready}
            loading={upload.isPending && upload.variables.dryRun}
          >
            Check only
          </Button>
        </Group>
        {upload.data && (
          <Alert color="teal" variant="light" data-testid="plugin-upload-result">
            <Text size="sm">
              {upload.data.dryRun ? 'Valid (nothing stored)' : 'Uploaded'}: {upload.data.id} {upload.data.version}
              {' · '}sha256 {upload.data.sha256.slice(0, 12)}…
            </Text>
          </Alert>
        )}
        {problem && (
          <Alert color="red" variant="light" title={problem.title} role="alert" data-testid="problem">
            {problem.detail && <Text size="sm">{problem.detail}</Text>}
            <FindingsList findings={findingsOf(problem)} />
          </Alert>
        )}
      </Stack>
    </PageSection>
  );
}
