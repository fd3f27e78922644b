// What a provider's validated ID-token claims say about the person: the spec's "external identity". Pure.
import type { OidcProviderConfig } from './oidc-config.ts';

export interface ExternalIdentity {
  readonly providerId: string;
  readonly subject: string;
  readonly username: string;
  readonly email: string | null;
  readonly displayName: string | null;
  readonly groups: readonly string[];
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** Undefined when the claims carry no subject (no account can be keyed then). */
export function externalIdentityOf(
  provider: Pick<OidcProviderConfig, 'id' | 'groupsClaim' | 'usernameClaim'>,
  claims: Record<string, unknown>,
): ExternalIdentity | undefined {
  const subject = text(claims.sub);
  if (!subject) return undefined;
  const rawGroups = claims[provider.groupsClaim];
  const groups = Array.isArray(rawGroups) ? rawGroups.flatMap((group) => text(group) ?? []) : [text(rawGroups)];
  return {
    providerId: provider.id,
    subject,
    username: (text(claims[provider.usernameClaim]) ?? text(claims.email) ?? subject).slice(0, 200),
    email: text(claims.email) ?? null,
    displayName: text(claims.name) ?? null,
    groups: [...new Set(groups.filter((group): group is string => group !== undefined))].sort(),
  };
}

/**
 * The username an external account gets when its own is taken by another account (any provider, any case):
 * `<name>@<provider>`, then `<name>@<provider>-2`, `-3`… Accounts are never merged by name.
 */
export function usernameCandidates(username: string, providerId: string, count = 20): string[] {
  const qualified = `${username}@${providerId}`;
  return [username, qualified, ...Array.from({ length: count - 2 }, (_, index) => `${qualified}-${index + 2}`)];
}
