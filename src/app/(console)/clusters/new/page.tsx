import { RegisterClusterScreen } from '@/modules/platform/clusters/ui.ts';

export default function RegisterClusterPage() {
  return <RegisterClusterScreen />;
}
