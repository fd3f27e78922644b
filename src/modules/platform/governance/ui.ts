// The governance module's public entry for the browser: the screens its routes render.
export { GovernanceScreen } from './ui/governance.screen.tsx';
