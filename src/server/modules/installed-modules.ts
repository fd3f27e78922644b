// Every module installed in this build, in load order. Adding a module = adding its descriptor here (and its
// router to trpc/app-router.ts if it serves procedures). See docs/adding-a-module.md.
import { auditModule } from '@/modules/kernel/audit/module.ts';
import { coreModule } from '@/modules/kernel/core/module.ts';
import { jobsModule } from '@/modules/kernel/jobs/module.ts';
import { pluginModule } from '@/modules/kernel/plugin/module.ts';
import type { ModuleDescriptor } from '@/modules/kernel/plugin/descriptor.ts';
import { brokerModule } from '@/modules/platform/broker/module.ts';
import { clustersModule } from '@/modules/platform/clusters/module.ts';
import { scrapeModule } from '@/modules/platform/scrape/module.ts';
import { settingsModule } from '@/modules/kernel/settings/module.ts';
import { securityModule } from '@/modules/kernel/security/module.ts';
import { streamModule } from '@/modules/kernel/stream/module.ts';
import { identityLocalModule } from '@/modules/feature/identity-local/module.ts';
import { apiTokensModule } from '@/modules/feature/apitokens/module.ts';
import { queuesModule } from '@/modules/feature/queues/module.ts';
import { identityOidcModule } from '@/modules/feature/identity-oidc/module.ts';

export const installedModules: readonly ModuleDescriptor[] = [
  coreModule,
  pluginModule,
  settingsModule,
  auditModule,
  jobsModule,
  streamModule,
  securityModule,
  brokerModule,
  clustersModule,
  scrapeModule,
  identityLocalModule,
  apiTokensModule,
  identityOidcModule,
  queuesModule,
];
