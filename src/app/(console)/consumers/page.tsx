import { ResourcesHomeScreen } from '@/modules/feature/resources/ui.ts';

export default function ConsumersPage() {
  return <ResourcesHomeScreen kind="consumers" />;
}
