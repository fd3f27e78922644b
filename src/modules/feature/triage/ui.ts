// The triage module's public entry for the browser: the screens its routes render.
export { TriageScreen } from './ui/triage.screen.tsx';
