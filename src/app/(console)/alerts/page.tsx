import { AlertsScreen } from '@/modules/feature/alerting/ui.ts';

export default function AlertsPage() {
  return <AlertsScreen />;
}
