// The `local` credential provider: accounts whose password hash Flotilla keeps.
import type { CredentialProvider } from '@/modules/kernel/security/module.ts';
import { localAccountCredential, verifyAgainstDecoy, verifyPassword } from '@/modules/kernel/security/index.ts';

export const authenticate: CredentialProvider['authenticate'] = async ({ prisma }, { username, password }) => {
  const user = await localAccountCredential(prisma, username);
  if (!user?.passwordHash || user.disabled) return verifyAgainstDecoy(password).then(() => undefined);
  return (await verifyPassword(password, user.passwordHash)) ? { userId: user.id } : undefined;
};
