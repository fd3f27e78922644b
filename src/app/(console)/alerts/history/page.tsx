import { AlertHistoryScreen } from '@/modules/feature/alerting/ui.ts';

export default function AlertHistoryPage() {
  return <AlertHistoryScreen />;
}
