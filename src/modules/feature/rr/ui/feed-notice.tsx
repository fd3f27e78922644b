'use client';
// What a sampled feed cannot see, as the server words it. Always shown while an address is sampled: it cannot be
// dismissed, since every number on the screen depends on it. A list shows it once for the sampled rows it holds.
import { Alert } from '@mantine/core';
import { IconEyeExclamation } from '@tabler/icons-react';

export function FeedNotice({ notice, addresses }: { notice: string; addresses: readonly string[] }) {
  return (
    <Alert
      color="yellow"
      icon={<IconEyeExclamation size={18} />}
      title={`Sampled, not captured: ${addresses.join(', ')}`}
      data-testid="feed-notice"
      data-addresses={addresses.join(' ')}
    >
      {notice}
    </Alert>
  );
}

/** The sampled rows' notices, each once with the addresses it concerns. */
export function sampledNotices(
  rows: ReadonlyArray<{ address: string; feed: { mode: string; notice: string | null } }>,
): Array<{ notice: string; addresses: string[] }> {
  const byNotice = new Map<string, string[]>();
  for (const row of rows) {
    if (row.feed.mode !== 'sample' || !row.feed.notice) continue;
    byNotice.set(row.feed.notice, [...(byNotice.get(row.feed.notice) ?? []), row.address]);
  }
  return [...byNotice].map(([notice, addresses]) => ({ notice, addresses }));
}
