'use client';
// Register a cluster: the form runs the dry-run probe first, shows every check and the nodes it found (plus what
// other modules add in `cluster.registration.afterProbe`), and only then offers Save, which lands on the overview.
// The sections are in register-form-fields.tsx, the request in register-form.ts, the state in
// use-register-cluster.ts.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { Slot } from '@/ui/slots/slot.tsx';
import { CheckResults, ProbedNodes } from './check-results.tsx';
import { ClusterSection, CredentialsSection, SeedNodeSection } from './register-form-fields.tsx';
import { useRegisterCluster } from './use-register-cluster.ts';

export function RegisterClusterScreen() {
  const { form, set, fieldError, probe, save, probed, results, register, canSave, knownEnvironments, otherProblem } =
    useRegisterCluster();
  return (
    <>
      <PageHeader
        title="Register a cluster"
        crumbs={[{ label: 'Clusters', href: '/clusters' }]}
        description="Give one node of the cluster; Flotilla probes it, finds the other nodes from its topology and checks what it may do, before anything is saved."
      />
      <Stack gap="lg" maw={960}>
        <form onSubmit={probe} aria-label="Register cluster">
          <ClusterSection form={form} set={set} nameError={fieldError('name')} knownEnvironments={knownEnvironments} />
          <Stack gap="lg" mt="lg">
            <SeedNodeSection form={form} set={set} managementUrlError={fieldError('nodes.0.managementUrl')} />
            <CredentialsSection form={form} set={set} />
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
