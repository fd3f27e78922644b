import { TriageScreen } from '@/modules/feature/triage/ui.ts';

export default function TriagePage() {
  return <TriageScreen />;
}
