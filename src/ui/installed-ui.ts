// Every installed module's UI, keyed by module id. The shell keeps those the manifest says are enabled; route
// ownership uses them all, so a deep link to a disabled module can say it is off. Add a module's UI here when
// you add the module to src/server/modules/installed-modules.ts.
import { apiTokensUi } from '@/modules/feature/apitokens/ui/contributions.ts';
import { queuesUi } from '@/modules/feature/queues/ui/contributions.ts';
import { identityOidcUi } from '@/modules/feature/identity-oidc/ui/contributions.ts';
import { auditUi } from '@/modules/kernel/audit/ui/contributions.ts';
import { jobsUi } from '@/modules/kernel/jobs/ui/contributions.ts';
import { pluginUi } from '@/modules/kernel/plugin/ui/contributions.ts';
import { clustersUi } from '@/modules/platform/clusters/ui/contributions.ts';
import { securityUi } from '@/modules/kernel/security/ui/contributions.ts';
import { settingsUi } from '@/modules/kernel/settings/ui/contributions.ts';
import { scrapeUi } from '@/modules/platform/scrape/ui/contributions.ts';
import type { ModuleUi } from './slots/contribution-types.ts';

export const INSTALLED_UI: readonly ModuleUi[] = [
  clustersUi,
  settingsUi,
  auditUi,
  securityUi,
  pluginUi,
  jobsUi,
  apiTokensUi,
  scrapeUi,
  identityOidcUi,
  queuesUi,
];
