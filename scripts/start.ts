// `npm start` — see src/server/process/supervisor.ts.
import { runSupervisor } from '@/server/process/supervisor.ts';

await runSupervisor();
