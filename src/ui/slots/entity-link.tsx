'use client';
// A row's name (a queue, an address, a connection, a session) as a link to wherever the enabled module that owns
// `<kind>.link` says it lives; plain text while no enabled module contributes one, so a table never links to a
// screen that is switched off. Only built-in modules contribute links (runtime plugins cannot; see
// contribution-types.ts).
import { Anchor, Text } from '@mantine/core';
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { RowTarget } from './contribution-types.ts';
import { useConsoleUi } from './console-ui-context.ts';
import { linkHref } from './resolve-ui.ts';
import type { LinkKind } from './slot-ids.ts';

export function EntityLink({ kind, target, children }: { kind: LinkKind; target: RowTarget; children: ReactNode }) {
  const href = linkHref(useConsoleUi().enabled, kind, target);
  if (!href)
    return (
      <Text span size="sm" data-link-kind={kind}>
        {children}
      </Text>
    );
  return (
    <Anchor component={Link} href={href} size="sm" data-link-kind={kind}>
      {children}
    </Anchor>
  );
}
