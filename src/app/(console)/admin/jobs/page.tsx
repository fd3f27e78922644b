import { JobsScreen } from '@/modules/kernel/jobs/ui.ts';

export default function JobsPage() {
  return <JobsScreen />;
}
