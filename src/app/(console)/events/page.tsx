import { EventsHomeScreen } from '@/modules/feature/events/ui.ts';

export default function EventsPage() {
  return <EventsHomeScreen />;
}
