import { ResourcesHomeScreen } from '@/modules/feature/resources/ui.ts';

export default function AddressesPage() {
  return <ResourcesHomeScreen kind="addresses" />;
}
