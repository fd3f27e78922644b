import { AddressScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterAddressPage() {
  return <AddressScreen />;
}
