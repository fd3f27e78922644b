// The alerting module's procedures, one router: rules (rule-procedures.ts), channels (channel-procedures.ts),
// alerts (alert-procedures.ts) and the screens' reads (alerting-reads.ts).
import { router } from '@/modules/kernel/access/index.ts';
import { channelProcedures } from './channel-procedures.ts';
import { ruleProcedures } from './rule-procedures.ts';
import { alertingReads } from './alerting-reads.ts';
import { alertProcedures } from './alert-procedures.ts';

export const alertingRouter = router({
  ...alertingReads,
  ...ruleProcedures,
  ...channelProcedures,
  ...alertProcedures,
});
