'use client';
// The register form's sections, top to bottom: the cluster's names, its seed node (and nodes typed by hand), and
// the credentials with optional TLS material.
import { Group, PasswordInput, TextInput, Textarea } from '@mantine/core';
import { PageSection } from '@/ui/parts/page-section.tsx';
import type { RegisterForm } from './register-form.ts';

interface SectionProps {
  readonly form: RegisterForm;
  readonly set: (field: keyof RegisterForm) => (event: { currentTarget: { value: string } }) => void;
}

export function ClusterSection({
  form,
  set,
  nameError,
  knownEnvironments,
}: SectionProps & { readonly nameError: string | undefined; readonly knownEnvironments: readonly string[] }) {
  return (
    <PageSection title="Cluster" description="Names as people in your team say them.">
      <Group grow align="flex-start">
        <TextInput label="Name" required value={form.name} onChange={set('name')} error={nameError} />
        <TextInput
          label="Environment"
          description={
            knownEnvironments.length > 0
              ? `Known: ${knownEnvironments.join(', ')}; a new name creates one`
              : 'A new name creates one'
          }
          required
          value={form.environment}
          onChange={set('environment')}
        />
      </Group>
      <TextInput label="Description" value={form.description} onChange={set('description')} />
    </PageSection>
  );
}

export function SeedNodeSection({
  form,
  set,
  managementUrlError,
}: SectionProps & { readonly managementUrlError: string | undefined }) {
  return (
    <PageSection
      title="Seed node"
      description="The Jolokia URL of any node, e.g. http://broker-1:8161/console/jolokia. The other nodes come from its topology; their management URLs follow the seed's scheme and port."
    >
      <Group grow align="flex-start">
        <TextInput
          label="Management URL"
          required
          value={form.managementUrl}
          onChange={set('managementUrl')}
          error={managementUrlError}
        />
        <TextInput
          label="AMQP URL"
          description="Optional, e.g. amqp://broker-1:61616"
          value={form.amqpUrl}
          onChange={set('amqpUrl')}
        />
      </Group>
      <Textarea
        label="Other nodes (optional)"
        description="One per line: management URL, then optionally its AMQP URL. Use this when a discovered node's guessed URL is wrong."
        autosize
        minRows={2}
        value={form.moreNodes}
        onChange={set('moreNodes')}
      />
    </PageSection>
  );
}

export function CredentialsSection({ form, set }: SectionProps) {
  return (
    <PageSection title="Credentials" description="Encrypted at rest; never shown again, never logged.">
      <Group grow align="flex-start">
        <TextInput label="User" required autoComplete="off" value={form.username} onChange={set('username')} />
        <PasswordInput
          label="Password"
          required
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
        />
      </Group>
      <Textarea
        label="CA certificate (PEM, optional)"
        description="For https management URLs signed by your own CA."
        autosize
        minRows={2}
        value={form.ca}
        onChange={set('ca')}
      />
      <Group grow align="flex-start">
        <Textarea
          label="Client certificate (PEM, optional)"
          description="For brokers that demand one (mutual TLS on management and AMQP)."
          autosize
          minRows={2}
          value={form.clientCertificate}
          onChange={set('clientCertificate')}
        />
        <Textarea
          label="Client private key (PEM, optional)"
          description="Stored encrypted like the password; never shown again."
          autosize
          minRows={2}
          value={form.clientKey}
          onChange={set('clientKey')}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
      </Group>
    </PageSection>
  );
}
