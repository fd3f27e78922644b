import { SessionsScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterSessionsPage() {
  return <SessionsScreen />;
}
