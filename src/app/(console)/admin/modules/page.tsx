import { ModulesScreen } from '@/modules/kernel/plugin/ui/modules.screen.tsx';

export default function ModulesPage() {
  return <ModulesScreen />;
}
