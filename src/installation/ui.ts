// Every installed module's UI contributions (its ui/contributions.ts). The shell keeps those the manifest says are
// enabled; route ownership uses them all, so a deep link to a disabled module can say it is off. One of the three
// lists of this folder a new module is added to (docs/adding-a-module.md); test/architecture/installation.test.ts
// fails when a module's contributions are not wired here.
import { apiTokensUi } from '@/modules/feature/apitokens/ui/contributions.ts';
import { queuesUi } from '@/modules/feature/queues/ui/contributions.ts';
import { eventsUi } from '@/modules/feature/events/ui/contributions.ts';
import { resourcesUi } from '@/modules/feature/resources/ui/contributions.ts';
import { messagesUi } from '@/modules/feature/messages/ui/contributions.ts';
import { governanceUi } from '@/modules/platform/governance/ui/contributions.ts';
import { metricsUi } from '@/modules/feature/metrics/ui/contributions.ts';
import { triageUi } from '@/modules/feature/triage/ui/contributions.ts';
import { alertingUi } from '@/modules/feature/alerting/ui/contributions.ts';
import { sqlUi } from '@/modules/feature/sql/ui/contributions.ts';
import { rrUi } from '@/modules/feature/rr/ui/contributions.ts';
import { routingUi } from '@/modules/feature/routing/ui/contributions.ts';
import { brokerconfigUi } from '@/modules/feature/brokerconfig/ui/contributions.ts';
import { identityOidcUi } from '@/modules/feature/identity-oidc/ui/contributions.ts';
import { auditUi } from '@/modules/kernel/audit/ui/contributions.ts';
import { pluginsUi } from '@/modules/feature/plugins/ui/contributions.ts';
import { jobsUi } from '@/modules/kernel/jobs/ui/contributions.ts';
import { accessUi } from '@/modules/kernel/access/ui/contributions.ts';
import { clustersUi } from '@/modules/platform/clusters/ui/contributions.ts';
import { securityUi } from '@/modules/kernel/security/ui/contributions.ts';
import { settingsUi } from '@/modules/kernel/settings/ui/contributions.ts';
import { scrapeUi } from '@/modules/platform/scrape/ui/contributions.ts';
import type { ModuleUi } from '@/ui/slots/contribution-types.ts';

export const INSTALLED_UI: readonly ModuleUi[] = [
  clustersUi,
  settingsUi,
  auditUi,
  securityUi,
  accessUi,
  jobsUi,
  apiTokensUi,
  scrapeUi,
  identityOidcUi,
  queuesUi,
  eventsUi,
  resourcesUi,
  messagesUi,
  governanceUi,
  metricsUi,
  triageUi,
  alertingUi,
  sqlUi,
  rrUi,
  routingUi,
  brokerconfigUi,
  pluginsUi,
];
