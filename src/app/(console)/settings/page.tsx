import { SettingsScreen } from '@/modules/kernel/settings/ui.ts';

export default function SettingsPage() {
  return <SettingsScreen />;
}
