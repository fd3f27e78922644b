// The installation: every module installed in this build, in load order. This folder is the one place outside a
// module's own folder that a new module touches: its descriptor here, its routers in app-router.ts, its UI in
// ui.ts (docs/adding-a-module.md); test/architecture/installation.test.ts checks nothing was forgotten.
import { accessModule } from '@/modules/kernel/access/module.ts';
import { auditModule } from '@/modules/kernel/audit/module.ts';
import { coreModule } from '@/modules/kernel/core/module.ts';
import { jobsModule } from '@/modules/kernel/jobs/module.ts';
import { pluginModule } from '@/modules/kernel/plugin/module.ts';
import type { ModuleDescriptor } from '@/modules/kernel/plugin/index.ts';
import { brokerModule } from '@/modules/platform/broker/module.ts';
import { governanceModule } from '@/modules/platform/governance/module.ts';
import { clustersModule } from '@/modules/platform/clusters/module.ts';
import { commandsModule } from '@/modules/platform/commands/module.ts';
import { scrapeModule } from '@/modules/platform/scrape/module.ts';
import { mcpModule } from '@/modules/platform/mcp/module.ts';
import { telemetryModule } from '@/modules/platform/telemetry/module.ts';
import { settingsModule } from '@/modules/kernel/settings/module.ts';
import { securityModule } from '@/modules/kernel/security/module.ts';
import { streamModule } from '@/modules/kernel/stream/module.ts';
import { identityLocalModule } from '@/modules/feature/identity-local/module.ts';
import { apiTokensModule } from '@/modules/feature/apitokens/module.ts';
import { queuesModule } from '@/modules/feature/queues/module.ts';
import { identityOidcModule } from '@/modules/feature/identity-oidc/module.ts';
import { eventsModule } from '@/modules/feature/events/module.ts';
import { metricsModule } from '@/modules/feature/metrics/module.ts';
import { triageModule } from '@/modules/feature/triage/module.ts';
import { resourcesModule } from '@/modules/feature/resources/module.ts';
import { messagesModule } from '@/modules/feature/messages/module.ts';
import { alertingModule } from '@/modules/feature/alerting/module.ts';
import { sqlModule } from '@/modules/feature/sql/module.ts';
import { rrModule } from '@/modules/feature/rr/module.ts';
import { routingModule } from '@/modules/feature/routing/module.ts';
import { brokerconfigModule } from '@/modules/feature/brokerconfig/module.ts';
import { pluginsModule } from '@/modules/feature/plugins/module.ts';

export const installedModules: readonly ModuleDescriptor[] = [
  coreModule,
  pluginModule,
  accessModule,
  settingsModule,
  auditModule,
  jobsModule,
  streamModule,
  securityModule,
  brokerModule,
  governanceModule,
  clustersModule,
  commandsModule,
  scrapeModule,
  mcpModule,
  telemetryModule,
  identityLocalModule,
  apiTokensModule,
  identityOidcModule,
  queuesModule,
  eventsModule,
  metricsModule,
  triageModule,
  resourcesModule,
  messagesModule,
  alertingModule,
  sqlModule,
  rrModule,
  routingModule,
  brokerconfigModule,
  pluginsModule,
];
