// The governance module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { loadKeyRing, processKeys, type KeyRing } from './server/vault/key-ring.ts';
export {
  needsResealing,
  openSecret,
  openSecretAllowingUnbound,
  sealSecret,
  VaultError,
  type Sealed,
} from './server/vault/secret-vault.ts';
export {
  auditClearView,
  governFields,
  governMessages,
  governRecords,
  maskAndSeal,
  openStoredOriginal,
  policyVersionInForce,
  requireClearAccess,
} from './server/govern.ts';
export type { Governed, GovernedMessage, MessageContent } from './server/policy/enforce.ts';
export { startRemaskLoop } from './server/remask-loop.ts';
