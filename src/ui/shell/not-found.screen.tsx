'use client';
// Rendered on the client: Mantine's Anchor takes next/link as its component, a function a server component cannot pass.
import { Anchor } from '@mantine/core';
import Link from 'next/link';
import { EmptyState } from '../parts/empty-state.tsx';
import { PageHeader } from '../parts/page-header.tsx';

export function NotFoundScreen() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState
        title="Nothing lives at this address"
        action={
          <Anchor component={Link} href="/">
            Go home
          </Anchor>
        }
      >
        The link may be from a newer or older version of Flotilla, or mistyped.
      </EmptyState>
    </>
  );
}
