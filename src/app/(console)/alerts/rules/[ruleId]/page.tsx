import { EditRuleScreen } from '@/modules/feature/alerting/ui.ts';

export default function AlertRulePage() {
  return <EditRuleScreen />;
}
