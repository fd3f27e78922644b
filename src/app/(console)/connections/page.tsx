import { ResourcesHomeScreen } from '@/modules/feature/resources/ui.ts';

export default function ConnectionsPage() {
  return <ResourcesHomeScreen kind="connections" />;
}
