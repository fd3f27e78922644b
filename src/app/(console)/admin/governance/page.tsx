import { GovernanceScreen } from '@/modules/platform/governance/ui.ts';

export default function GovernancePage() {
  return <GovernanceScreen />;
}
