import { RulesScreen } from '@/modules/feature/alerting/ui.ts';

export default function AlertRulesPage() {
  return <RulesScreen />;
}
