// A cluster's stored credentials that no key of the ring opens: every caller that opens them for a request answers
// the same 409 problem, which says what to do, instead of a 500 (found by the REST fuzzing, issue 34).
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { VaultError } from '@/modules/platform/governance/index.ts';

/**
 * A cluster whose stored credentials no key of the ring opens (the key was lost or rotated without
 * FLOTILLA_SECRET_KEY_PREVIOUS): a 409 that says what to do, not a 500. The vault's message names the key id and the
 * binding, never the secret, the key or the cipher text.
 */
function credentialsUnreadable(error: VaultError): ProblemError {
  return new ProblemError({
    type: 'credentials-unreadable',
    title: 'The cluster’s stored credentials cannot be opened',
    status: 409,
    detail:
      `${error.message}. Start Flotilla with the key they were sealed with (FLOTILLA_SECRET_KEY, or ` +
      'FLOTILLA_SECRET_KEY_PREVIOUS during a rotation), or give the credentials again (PATCH /api/v1/clusters/{id}).',
  });
}

export function openCredentials<T>(open: () => T): T {
  try {
    return open();
  } catch (error) {
    throw error instanceof VaultError ? credentialsUnreadable(error) : error;
  }
}
