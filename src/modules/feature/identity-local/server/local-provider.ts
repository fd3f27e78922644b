// The `local` credential provider: accounts whose password hash Flotilla keeps.
import type { CredentialProvider } from '@/modules/kernel/security/module.ts';
import { verifyAgainstDecoy, verifyPassword } from '@/modules/kernel/security/index.ts';

export const authenticate: CredentialProvider['authenticate'] = async ({ prisma }, { username, password }) => {
  const rows = await prisma.$queryRaw<{ id: string; password_hash: string | null; disabled: boolean }[]>`
    SELECT id, password_hash, disabled FROM flotilla_user
     WHERE provider_id = 'local' AND lower(username) = lower(${username})`;
  const user = rows[0];
  if (!user?.password_hash || user.disabled) return verifyAgainstDecoy(password).then(() => undefined);
  return (await verifyPassword(password, user.password_hash)) ? { userId: user.id } : undefined;
};
