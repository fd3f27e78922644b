'use client';
// Register a cluster: the form runs the dry-run probe first, shows every check and the nodes it found (plus what
// other modules add in `cluster.registration.afterProbe`), and only then offers Save, which lands on the overview.
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import Link from 'next/link';
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { Slot } from '@/ui/slots/slot.tsx';
import { CheckResults, ProbedNodes, type CheckResult, type ProbedNode } from './check-results.tsx';

type RegisterInput = RouterInputs['clusters']['register'];

interface FormState {
  name: string;
  environment: string;
  description: string;
  managementUrl: string;
  amqpUrl: string;
  /** More nodes, one per line: `managementUrl [amqpUrl]`, to override or add to what discovery finds. */
  moreNodes: string;
  username: string;
  password: string;
  ca: string;
  clientCertificate: string;
  clientKey: string;
}

const EMPTY: FormState = {
  name: '',
  environment: '',
  description: '',
  managementUrl: '',
  amqpUrl: '',
  moreNodes: '',
  username: '',
  password: '',
  ca: '',
  clientCertificate: '',
  clientKey: '',
};

function toInput(form: FormState, dryRun: boolean): RegisterInput {
  const extra = form.moreNodes
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([managementUrl]) => Boolean(managementUrl))
    .map(([managementUrl = '', amqpUrl]) => ({ managementUrl, ...(amqpUrl ? { amqpUrl } : {}) }));
  return {
    name: form.name,
    environment: form.environment,
    description: form.description,
    nodes: [{ managementUrl: form.managementUrl, ...(form.amqpUrl ? { amqpUrl: form.amqpUrl } : {}) }, ...extra],
    credentials: { username: form.username, password: form.password },
    ...(form.ca.trim() || form.clientCertificate.trim() || form.clientKey.trim()
      ? {
          tls: {
            ...(form.ca.trim() ? { ca: form.ca } : {}),
            ...(form.clientCertificate.trim() ? { clientCertificate: form.clientCertificate } : {}),
            ...(form.clientKey.trim() ? { clientKey: form.clientKey } : {}),
          },
        }
      : {}),
    dryRun,
  };
}

interface ProbeAnswer {
  readonly checks: readonly CheckResult[];
  readonly nodes: readonly ProbedNode[];
  readonly refused: boolean;
}

/** A 422 refusal carries the checks too; show them like a successful probe's. */
function answerOf(error: unknown): ProbeAnswer | undefined {
  const problem = problemOf(error) as { type: string; checks?: CheckResult[]; nodes?: ProbedNode[] };
  if (problem.type !== 'registration-checks-failed' || !problem.checks) return undefined;
  return { checks: problem.checks, nodes: problem.nodes ?? [], refused: true };
}

export function RegisterClusterScreen() {
  const trpc = useTRPC();
  const router = useRouter();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [probed, setProbed] = useState<{ answer: ProbeAnswer; input: string } | undefined>(undefined);
  // The results land below a long form: bring them into view when they arrive, or nobody sees them.
  const results = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (probed) results.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [probed]);
  const environments = useQuery(trpc.environments.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const register = useMutation(trpc.clusters.register.mutationOptions());
  const set = (field: keyof FormState) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
  };
  const fieldError = (field: string) =>
    register.isError ? problemOf(register.error).errors?.find((error) => error.field === field)?.message : undefined;

  const probe = (event: SyntheticEvent) => {
    event.preventDefault();
    const input = toInput(form, true);
    setProbed(undefined);
    register.mutate(input, {
      onSuccess: (answer) => setProbed({ answer: { ...answer, refused: false }, input: JSON.stringify(form) }),
      onError: (error) => {
        const answer = answerOf(error);
        if (answer) setProbed({ answer, input: JSON.stringify(form) });
      },
    });
  };
  const save = () => {
    register.mutate(toInput(form, false), {
      onSuccess: (answer) => {
        if (answer.clusterId) router.push(`/clusters/${answer.clusterId}`);
      },
      onError: (error) => {
        const answer = answerOf(error);
        if (answer) setProbed({ answer, input: JSON.stringify(form) });
      },
    });
  };
  // Save is offered only for the form exactly as probed, and only when no blocking check failed.
  const canSave = probed !== undefined && !probed.answer.refused && probed.input === JSON.stringify(form);
  const knownEnvironments = environments.data?.items.map((item) => item.name) ?? [];
  const otherProblem = register.isError && !answerOf(register.error) && !fieldError('name');

  return (
    <>
      <PageHeader
        title="Register a cluster"
        crumbs={[{ label: 'Clusters', href: '/clusters' }]}
        description="Give one node of the cluster; Flotilla probes it, finds the other nodes from its topology and checks what it may do, before anything is saved."
      />
      <Stack gap="lg" maw={960}>
        <form onSubmit={probe} aria-label="Register cluster">
          <PageSection title="Cluster" description="Names as people in your team say them.">
            <Group grow align="flex-start">
              <TextInput label="Name" required value={form.name} onChange={set('name')} error={fieldError('name')} />
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
          <Stack gap="lg" mt="lg">
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
                  error={fieldError('nodes.0.managementUrl')}
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
            <Group>
              <Button type="submit" variant={canSave ? 'default' : 'filled'} loading={register.isPending}>
                Probe
              </Button>
              <Button component={Link} href="/clusters" variant="subtle">
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
        {otherProblem && <ProblemView error={register.error} />}
        {probed && (
          <div ref={results} data-testid="probe-results">
            <PageSection
              title="Probe results"
              description={
                probed.answer.refused
                  ? 'A blocking check failed: fix it and probe again.'
                  : `${probed.answer.nodes.length} node${probed.answer.nodes.length === 1 ? '' : 's'} found. Nothing is saved until you press Save.`
              }
            >
              <CheckResults checks={probed.answer.checks} />
              <ProbedNodes nodes={probed.answer.nodes} />
            </PageSection>
          </div>
        )}
        {probed && <Slot id="cluster.registration.afterProbe" props={{ clusterId: '' }} />}
        {probed && !canSave && !probed.answer.refused && (
          <Alert color="yellow">The form changed since the probe: probe again before saving.</Alert>
        )}
        {probed && (
          <Group>
            <Button onClick={save} disabled={!canSave} loading={register.isPending}>
              Save cluster
            </Button>
            <Text size="sm" c="dimmed">
              Saves the cluster with the nodes above and records it in the audit log.
            </Text>
          </Group>
        )}
      </Stack>
    </>
  );
}
