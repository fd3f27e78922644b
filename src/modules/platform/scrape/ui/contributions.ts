import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { SweepStatus } from './sweep-status.tsx';

export const scrapeUi = defineModuleUi({
  moduleId: 'scrape',
  contributions: [{ slot: 'cluster.header', id: 'scrape-sweeps', order: 50, component: SweepStatus }],
});
