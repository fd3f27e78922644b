import { RrHomeScreen } from '@/modules/feature/rr/ui.ts';

export default function RrPage() {
  return <RrHomeScreen />;
}
