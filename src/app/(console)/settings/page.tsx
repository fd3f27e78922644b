import { SettingsScreen } from '@/modules/kernel/settings/ui/settings.screen.tsx';

export default function SettingsPage() {
  return <SettingsScreen />;
}
