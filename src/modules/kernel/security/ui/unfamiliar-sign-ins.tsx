'use client';
// Shown on your account when your username failed to sign in from addresses you have not signed in from: how many
// since when, and whether such addresses are held back now. Your own addresses are never held back by them.
import { Alert } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';

type Failures = RouterOutputs['security']['account']['me']['unfamiliarSignInFailures'];

const when = (iso: string) => new Date(iso).toLocaleString('en');

export function UnfamiliarSignIns({ failures }: { failures: Failures | undefined }) {
  if (!failures) return null;
  const held = failures.lockedUntil
    ? ` Sign-ins from unfamiliar addresses are held back until ${when(failures.lockedUntil)}; addresses you signed in from recently are not.`
    : '';
  return (
    <Alert
      color="yellow"
      icon={<IconShieldExclamation size={18} />}
      title="Failed sign-ins from unfamiliar addresses"
      data-testid="unfamiliar-sign-ins"
      maw={720}
    >
      {`${failures.count} failed sign-in${failures.count === 1 ? '' : 's'} with your username from addresses you have not signed in from, since ${when(failures.since)}.${held} If that was not you, keep your password strong; an administrator sees the addresses in the audit log.`}
    </Alert>
  );
}
