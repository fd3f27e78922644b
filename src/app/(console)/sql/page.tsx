import { SqlHomeScreen } from '@/modules/feature/sql/ui.ts';

export default function SqlPage() {
  return <SqlHomeScreen />;
}
