import { EventsScreen } from '@/modules/feature/events/ui.ts';

export default function ClusterEventsPage() {
  return <EventsScreen />;
}
