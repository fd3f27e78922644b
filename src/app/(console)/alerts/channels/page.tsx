import { ChannelsScreen } from '@/modules/feature/alerting/ui.ts';

export default function AlertChannelsPage() {
  return <ChannelsScreen />;
}
