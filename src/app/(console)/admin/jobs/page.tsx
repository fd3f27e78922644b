import { JobsScreen } from '@/modules/kernel/jobs/ui/jobs.screen.tsx';

export default function JobsPage() {
  return <JobsScreen />;
}
