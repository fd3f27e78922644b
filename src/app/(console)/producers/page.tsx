import { ResourcesHomeScreen } from '@/modules/feature/resources/ui.ts';

export default function ProducersPage() {
  return <ResourcesHomeScreen kind="producers" />;
}
