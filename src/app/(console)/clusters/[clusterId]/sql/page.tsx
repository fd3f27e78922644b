import { SqlConsoleScreen } from '@/modules/feature/sql/ui.ts';

export default function ClusterSqlPage() {
  return <SqlConsoleScreen />;
}
