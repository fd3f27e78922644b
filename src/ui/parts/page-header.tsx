'use client';
import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import Link from 'next/link';
import type { ReactNode } from 'react';

/** A step back up from a nested page: where it leads and what it is called. */
export interface Crumb {
  readonly label: string;
  readonly href: string;
}

/** The browser tab's title: the page, then the cluster it is about (when it is about one), then the product. */
export function documentTitle(title: string, cluster?: string): string {
  return [title, cluster, 'Flotilla'].filter(Boolean).join(' · ');
}

/**
 * The top of every screen: the way back up (on nested pages), its title, one sentence on what it is for, and the
 * screen's own actions. It also names the browser tab, so a row of tabs says which page and cluster each one is.
 */
export function PageHeader({
  title,
  description,
  actions,
  cluster,
  crumbs,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** The cluster the page is about, for the tab's title. */
  cluster?: string;
  crumbs?: readonly Crumb[];
}) {
  return (
    <Stack gap="xs" mb="lg">
      {/* React places it in the document's head. */}
      <title>{documentTitle(title, cluster)}</title>
      {crumbs && crumbs.length > 0 && (
        <Breadcrumbs aria-label="Breadcrumbs" data-testid="breadcrumbs" fz="sm">
          {crumbs.map((crumb) => (
            <Anchor key={crumb.href} component={Link} href={crumb.href} size="sm">
              {crumb.label}
            </Anchor>
          ))}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" maw="70ch">
              {description}
            </Text>
          )}
        </Stack>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
    </Stack>
  );
}
