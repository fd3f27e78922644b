// The alerting module's public entry for the browser: the screens its routes render.
export { AlertsScreen } from './ui/alerts.screen.tsx';
