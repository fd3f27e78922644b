import { AddressesScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterAddressesPage() {
  return <AddressesScreen />;
}
