// The OpenID providers this installation signs in with, from FLOTILLA_OIDC_PROVIDERS (a JSON array; see
// docs/security.md). Read once per process; a bad value stops start-up with one message naming the field.
import { z } from 'zod';

const OIDC_PROVIDERS_VARIABLE = 'FLOTILLA_OIDC_PROVIDERS';
export const OIDC_BASE_PATH = '/api/v1/auth/oidc';

const providerSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,39}$/, 'lower-case letters, digits and hyphens, starting with a letter, at most 40')
    .refine((id) => id !== 'local', 'is reserved for local accounts'),
  label: z.string().min(1).max(80).optional(),
  issuer: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scopes: z.array(z.string().regex(/^\S+$/)).default(['openid', 'profile', 'email']),
  groupsClaim: z.string().min(1).default('groups'),
  usernameClaim: z.string().min(1).default('preferred_username'),
});

export interface OidcProviderConfig {
  readonly id: string;
  readonly label: string;
  readonly issuer: string;
  readonly clientId: string;
  /** Never logged, returned or audited. */
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  readonly groupsClaim: string;
  readonly usernameClaim: string;
}

export function parseOidcProviders(raw: string | undefined): OidcProviderConfig[] {
  if (!raw?.trim()) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`${OIDC_PROVIDERS_VARIABLE} is not valid JSON (expected an array of providers).`);
  }
  const parsed = z.array(providerSchema).safeParse(json);
  if (!parsed.success) {
    // Name the field, never echo a value: the secret may be what is wrong.
    const issue = parsed.error.issues[0];
    throw new Error(`${OIDC_PROVIDERS_VARIABLE}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`);
  }
  const ids = parsed.data.map((provider) => provider.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated) throw new Error(`${OIDC_PROVIDERS_VARIABLE}: provider id "${repeated}" appears twice.`);
  return parsed.data.map((provider) => ({
    ...provider,
    label: provider.label ?? provider.id,
    scopes: provider.scopes.includes('openid') ? provider.scopes : ['openid', ...provider.scopes],
  }));
}

let configured: OidcProviderConfig[] | undefined;

export function configuredOidcProviders(): OidcProviderConfig[] {
  configured ??= parseOidcProviders(process.env[OIDC_PROVIDERS_VARIABLE]);
  return configured;
}

export const startPathOf = (providerId: string) => `${OIDC_BASE_PATH}/signin/${providerId}`;
