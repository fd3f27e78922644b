import { RegisterClusterScreen } from '@/modules/platform/clusters/ui/register-cluster.screen.tsx';

export default function RegisterClusterPage() {
  return <RegisterClusterScreen />;
}
