'use client';
// The first screen. Until a module contributes to `home.empty` (the clusters module will: "register your first
// cluster"), it says what Flotilla is and where to go now.
import { Anchor, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import { PageHeader } from '../parts/page-header.tsx';
import { PageSection } from '../parts/page-section.tsx';
import { Slot } from '../slots/slot.tsx';

const NEXT_STEPS = [
  {
    href: '/settings',
    title: 'Review the settings',
    text: 'Retention, keep-alive and broker client limits, with their rules.',
  },
  { href: '/audit', title: 'Read the audit log', text: 'Every change made through Flotilla, dry runs included.' },
  {
    href: '/admin/modules',
    title: 'See what is installed',
    text: 'Modules, whether each is on, and how to turn one on.',
  },
  { href: '/admin/jobs', title: 'Check the system jobs', text: 'Scheduled work and whether any of it is degraded.' },
] as const;

function NoClustersYet() {
  return (
    <PageSection title="No clusters yet" description="Flotilla shows what it sees of your Artemis clusters.">
      <Text size="sm">
        Registering a cluster arrives with the clusters module. Until then, this installation already keeps its
        settings, audit log and scheduled jobs:
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {NEXT_STEPS.map((step) => (
          <Card key={step.href} withBorder padding="sm" radius="md">
            <Anchor component={Link} href={step.href} fw={600}>
              {step.title}
            </Anchor>
            <Text size="sm" c="dimmed">
              {step.text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </PageSection>
  );
}

export function HomeScreen() {
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader
        title="Welcome to Flotilla"
        description="One console for whole fleets of Apache ActiveMQ Artemis clusters: every node at once, explained, with every write previewed, capped and audited."
      />
      <Slot id="home.empty" props={{}} fallback={<NoClustersYet />} />
    </Stack>
  );
}
