import { ModulesScreen } from '@/modules/kernel/access/ui.ts';

export default function ModulesPage() {
  return <ModulesScreen />;
}
