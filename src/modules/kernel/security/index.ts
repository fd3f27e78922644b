// The security module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { localAccountCredential, upsertExternalAccount } from './server/accounts.ts';
export { ensureFirstAdmin, syncBuiltInRoles } from './server/built-in-roles-sync.ts';
export { loadEffectiveGrants } from './server/effective-grants.ts';
export { hashPassword, verifyAgainstDecoy, verifyPassword } from './server/passwords.ts';
export { resolvePrincipal } from './server/principal.ts';
export { forgetRolePermissions, rolesHolding } from './server/roles-holding.ts';
export { sessionCookies } from './server/sessions.ts';
export { requireStepUp } from './server/step-up.ts';
export { completeSignIn, failSignIn, enabledSignInProviders, refuseWhileThrottled } from './server/sign-in.service.ts';
export type { SignInAttempt, SignInDependencies } from './server/sign-in.service.ts';
