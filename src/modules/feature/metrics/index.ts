// The metrics module's public entry for server code: the only file other modules may import from it (besides
// module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { storedVerdictsOf, verdictCountsOf, worstQueuesOf } from './server/verdict-store.ts';
