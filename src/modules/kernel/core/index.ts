// The core module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { CORE_SETTINGS } from './core.settings.ts';
export { featureDisabledProblem } from './feature-disabled.ts';
export { InternalNotifications, notificationsOf } from './internal-notifications.ts';
export { listQuerySchema, listResultSchema, pageOf, parseSort, sortSchema } from './list-query.ts';
export {
  NO_ROUTE,
  PROBLEM_CONTENT_TYPE,
  ProblemError,
  databaseBusyProblem,
  internalErrorProblem,
  malformedRequestProblem,
  notFoundProblem,
  problemResponse,
  serviceUnavailableProblem,
  storageFullProblem,
  validationProblem,
} from './problem.ts';
export type { FieldError, Problem } from './problem.ts';
export { ANONYMOUS, createRequestContext, isSecure, requestIdFrom, systemContext } from './request-context.ts';
export type { Actor, RequestContext } from './request-context.ts';
