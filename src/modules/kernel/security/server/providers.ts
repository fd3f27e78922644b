// The sign-in and bearer provider extension points' contract, declared by security, which asks every enabled
// module's providers (identity-local, identity-oidc, apitokens, …).
import type { PrismaClient } from '@/base/db/database.ts';

/** What the security kernel asks a sign-in provider; providers answer nothing for what is not theirs. */
interface SignInProviderContext {
  readonly prisma: PrismaClient;
}

export interface CredentialProvider {
  /** Takes the same time whether or not the user exists (verify against a decoy hash when it does not). */
  authenticate(
    context: SignInProviderContext,
    credentials: { username: string; password: string },
  ): Promise<{ userId: string } | undefined>;
}

export interface CredentialProviderDeclaration {
  readonly id: string;
  readonly kind: 'credential';
  readonly label: string;
  readonly load: () => Promise<CredentialProvider>;
}

/** A browser sign-in at an external provider (OIDC): the sign-in page sends the browser to `startPath`. */
interface RedirectProviderDeclaration {
  readonly id: string;
  readonly kind: 'redirect';
  readonly label: string;
  readonly startPath: string;
}

export type SignInProviderDeclaration = CredentialProviderDeclaration | RedirectProviderDeclaration;

/** A bearer provider answers for its own tokens only (e.g. `as_` API tokens) and nothing otherwise. */
export interface BearerProvider {
  resolve(context: SignInProviderContext, token: string): Promise<{ userId: string; label: string } | undefined>;
}

export interface BearerProviderDeclaration {
  readonly id: string;
  readonly load: () => Promise<BearerProvider>;
}
