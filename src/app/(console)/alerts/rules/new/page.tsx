import { NewRuleScreen } from '@/modules/feature/alerting/ui.ts';

export default function NewAlertRulePage() {
  return <NewRuleScreen />;
}
