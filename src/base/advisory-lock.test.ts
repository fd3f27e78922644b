import { describe, expect, it } from 'vitest';
import { lockKeyText, type LockNamespace } from './advisory-lock.ts';

describe('advisory lock keys', () => {
  it('never give two namespaces the same key text, even for look-alike names', () => {
    const namespaces: LockNamespace[] = ['jobs', 'clusters.owner', 'security.setup', 'identity-oidc.provisioning'];
    const texts = namespaces.flatMap((namespace) =>
      ['', 'a', 'owner:a', 'x'].map((name) => lockKeyText(namespace, name)),
    );
    expect(new Set(texts).size).toBe(texts.length);
    expect(lockKeyText('jobs', 'audit.retention')).toBe('jobs:audit.retention');
  });
});
