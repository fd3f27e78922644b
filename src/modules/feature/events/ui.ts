// The events module's public entry for the browser: the screens its routes render.
export { EventsHomeScreen } from './ui/events-home.screen.tsx';
export { EventsScreen } from './ui/events.screen.tsx';
