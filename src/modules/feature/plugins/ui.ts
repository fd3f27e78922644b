// The plugins module's public entry for the browser: the screen its route renders. Server code stays out of it.
export { PluginsScreen } from './ui/plugins.screen.tsx';
