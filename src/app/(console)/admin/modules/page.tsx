import { ModulesScreen } from '@/modules/kernel/plugin/ui.ts';

export default function ModulesPage() {
  return <ModulesScreen />;
}
