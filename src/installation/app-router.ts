// The application router, composed statically so `AppRouter` keeps every procedure's type. A disabled module's
// procedures stay here and answer `feature-disabled` (see moduleProcedure in kernel/access/procedure.ts). Routers
// are imported from their files (`<module>/server/*.router.ts`): only this folder may import them.
import { auditRouter } from '@/modules/kernel/audit/server/audit.router.ts';
import { jobsRouter } from '@/modules/kernel/jobs/server/jobs.router.ts';
import { apiTokensRouter } from '@/modules/feature/apitokens/server/api-tokens.router.ts';
import { accountRouter } from '@/modules/kernel/security/server/account.router.ts';
import { authRouter } from '@/modules/kernel/security/server/auth.router.ts';
import { grantsRouter } from '@/modules/kernel/security/server/admin/grants.router.ts';
import { rolesRouter } from '@/modules/kernel/security/server/admin/roles.router.ts';
import { throttlesRouter } from '@/modules/kernel/security/server/admin/throttles.router.ts';
import { usersRouter } from '@/modules/kernel/security/server/admin/users.router.ts';
import { groupMappingsRouter } from '@/modules/kernel/security/server/group-mappings.router.ts';
import { manifestRouter } from '@/modules/kernel/access/server/manifest.router.ts';
import { clustersRouter } from '@/modules/platform/clusters/server/clusters.router.ts';
import { environmentsRouter } from '@/modules/platform/clusters/server/environments.router.ts';
import { queuesRouter } from '@/modules/feature/queues/server/queues.router.ts';
import { eventsRouter } from '@/modules/feature/events/server/events.router.ts';
import { metricsRouter } from '@/modules/feature/metrics/server/metrics.router.ts';
import { triageRouter } from '@/modules/feature/triage/server/triage.router.ts';
import { resourcesRouter } from '@/modules/feature/resources/server/resources.router.ts';
import { messagesRouter } from '@/modules/feature/messages/server/messages.router.ts';
import { sqlRouter } from '@/modules/feature/sql/server/sql.router.ts';
import { rrRouter } from '@/modules/feature/rr/server/rr.router.ts';
import { routingRouter } from '@/modules/feature/routing/server/routing.router.ts';
import { pluginsRouter } from '@/modules/feature/plugins/server/plugins.router.ts';
import { brokerconfigRouter } from '@/modules/feature/brokerconfig/server/brokerconfig.router.ts';
import { alertingRouter } from '@/modules/feature/alerting/server/alerting.router.ts';
import { governanceRouter } from '@/modules/platform/governance/server/governance.router.ts';
import { scrapeRouter } from '@/modules/platform/scrape/server/scrape.router.ts';
import { settingsRouter } from '@/modules/kernel/settings/server/settings.router.ts';
import { mergeRouters, router } from '@/modules/kernel/access/index.ts';

// One key per module, named by its id (REST paths are the procedures' own and do not follow these keys).
export const appRouter = router({
  access: manifestRouter,
  settings: settingsRouter,
  audit: auditRouter,
  jobs: jobsRouter,
  security: router({
    auth: authRouter,
    account: accountRouter,
    users: usersRouter,
    roles: rolesRouter,
    grants: grantsRouter,
    throttles: throttlesRouter,
    groupMappings: groupMappingsRouter,
  }),
  apitokens: apiTokensRouter,
  clusters: mergeRouters(clustersRouter, router({ environments: environmentsRouter })),
  scrape: scrapeRouter,
  queues: queuesRouter,
  events: eventsRouter,
  metrics: metricsRouter,
  triage: triageRouter,
  resources: resourcesRouter,
  messages: messagesRouter,
  sql: sqlRouter,
  rr: rrRouter,
  routing: routingRouter,
  plugins: pluginsRouter,
  brokerconfig: brokerconfigRouter,
  alerting: alertingRouter,
  governance: governanceRouter,
});

export type AppRouter = typeof appRouter;
