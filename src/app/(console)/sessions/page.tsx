import { ResourcesHomeScreen } from '@/modules/feature/resources/ui.ts';

export default function SessionsPage() {
  return <ResourcesHomeScreen kind="sessions" />;
}
