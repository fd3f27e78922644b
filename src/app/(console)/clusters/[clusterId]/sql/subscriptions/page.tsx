import { SqlSubscriptionsScreen } from '@/modules/feature/sql/ui.ts';

export default function ClusterSqlSubscriptionsPage() {
  return <SqlSubscriptionsScreen />;
}
