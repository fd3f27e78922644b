import { describe, expect, it } from 'vitest';
import { newPasswordSchema, passwordWeakness, refuseWeakPassword } from './password-policy.ts';
import {
  canSeeCluster,
  clusterPermissions,
  globalPermissions,
  type EffectiveGrant,
} from '@/modules/kernel/access/index.ts';
import { generatePassword, hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { builtInRoles } from './roles.ts';

describe('passwords', () => {
  it('verify the right password and refuse others, with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('anything', 'plain-text')).toBe(false);
    expect(await verifyAgainstDecoy('correct horse battery')).toBe(false);
  });

  it('generates long random passwords', () => {
    const password = generatePassword();
    expect(password).toMatch(/^[a-zA-Z2-9]{24}$/);
    expect(generatePassword()).not.toBe(password);
  });
});

describe('built-in roles', () => {
  it('nest: each role holds its own permissions and those of the roles below', () => {
    const roles = builtInRoles([
      { id: 'queues:read', description: '', includedIn: 'viewer' },
      { id: 'queues:purge', description: '', includedIn: 'operator' },
      { id: 'users:write', description: '', includedIn: 'admin' },
      { id: 'plugins:install', description: '', includedIn: 'installer' },
    ]);
    expect(Object.fromEntries(roles.map((role) => [role.name, role.permissions]))).toEqual({
      viewer: ['queues:read'],
      operator: ['queues:purge', 'queues:read'],
      admin: ['queues:purge', 'queues:read', 'users:write'],
      installer: ['plugins:install', 'queues:purge', 'queues:read', 'users:write'],
    });
  });
});

describe('grants', () => {
  const prod = { clusterId: 'c-prod-1', environmentId: 'env-prod' };
  const test = { clusterId: 'c-test-1', environmentId: 'env-test' };
  const grants: EffectiveGrant[] = [
    { scope: { kind: 'ENVIRONMENT', id: 'env-prod' }, permissions: ['queues:read'] },
    { scope: { kind: 'CLUSTER', id: 'c-test-1' }, permissions: ['queues:purge'] },
  ];

  it('walk the hierarchy: a cluster gets its environment’s and its own grants, never another’s', () => {
    expect([...clusterPermissions(grants, prod)]).toEqual(['queues:read']);
    expect([...clusterPermissions(grants, test)]).toEqual(['queues:purge']);
    expect(canSeeCluster(grants, { clusterId: 'c-other', environmentId: null })).toBe(false);
  });

  it('give global permissions only through global grants', () => {
    expect(globalPermissions(grants).size).toBe(0);
    const admin: EffectiveGrant[] = [{ scope: { kind: 'GLOBAL' }, permissions: ['users:write', 'queues:read'] }];
    expect([...globalPermissions(admin)].sort()).toEqual(['queues:read', 'users:write']);
    expect(canSeeCluster(admin, prod)).toBe(true);
  });
});

describe('password hashing under a burst', () => {
  it('runs a bounded number at once, queues a bounded number and refuses the rest with 503 and Retry-After', async () => {
    // A cheap hash (N=1024) so the burst is quick; the bound is the same whatever the cost.
    const cheap = ['scrypt', 1024, 8, 1, Buffer.alloc(16).toString('base64'), Buffer.alloc(32).toString('base64')];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 70 }, () => verifyPassword('guess', cheap.join('$'))),
    );
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(66);
    expect(refused).toHaveLength(4);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      problem: { type: 'busy', status: 503, retryAfterSeconds: 1 },
    });
    // Once the burst has drained, the next check runs again.
    expect(await verifyPassword('guess', cheap.join('$'))).toBe(false);
  });
});

describe('the password policy', () => {
  it.each(['aaaaaaaaaaaa', 'abcabcabcabc', 'abcdabcdabcdabcd', '121212121212'])(
    'refuses %j, a few characters repeated',
    (password) => {
      expect(newPasswordSchema.safeParse(password).success).toBe(false);
    },
  );

  it('accepts a long password that is not a repetition, and refuses a short one', () => {
    expect(newPasswordSchema.safeParse('correct horse battery').success).toBe(true);
    expect(newPasswordSchema.safeParse('abcdeabcdeab').success).toBe(true); // five repeated is no longer trivial
    expect(newPasswordSchema.safeParse('short').success).toBe(false);
  });

  it('refuses a password holding the username, whatever its case', async () => {
    expect(await passwordWeakness('Welcome-Grace-2026', 'grace')).toMatch(/username/);
    expect(await passwordWeakness('a long and fine password', 'grace')).toBeUndefined();
  });

  it.each(['Password1234', 'Welcome12345', 'qwertyuiop123', 'Flotilla2026!', 'ActiveMQ-2026'])(
    'refuses %j, easy to guess, explaining why',
    async (password) => {
      expect(await passwordWeakness(password, 'grace')).toMatch(
        /^is too easy to guess \(strength [0-2] of 4, at least 3 needed\): \S/,
      );
    },
  );

  it("explains a refusal with zxcvbn's feedback, in a 400 naming the field", async () => {
    await expect(refuseWeakPassword('Password1234', 'grace', 'newPassword')).rejects.toThrow(
      expect.objectContaining({
        problem: expect.objectContaining({
          status: 400,
          errors: [
            {
              field: 'newPassword',
              message: expect.stringContaining('similar to a commonly used password') as unknown,
            },
          ],
        }) as unknown,
      }),
    );
  });

  it.each(['correct horse battery', 'deep-harbour-lantern-41', 'vK3!pq9#Lm2x'])('accepts %j', async (password) => {
    expect(await passwordWeakness(password, 'grace')).toBeUndefined();
  });
});
