// The brokerconfig module's public entry for the browser: the screens its routes render. Server code stays out of it,
// so a page never pulls the database client into its bundle.
export { ConfigHomeScreen } from './ui/config-home.screen.tsx';
export { ConfigScreen } from './ui/config.screen.tsx';
