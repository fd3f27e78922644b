import { PluginsScreen } from '@/modules/feature/plugins/ui.ts';

export default function PluginsPage() {
  return <PluginsScreen />;
}
