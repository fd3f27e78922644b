// The access module's public entry for the browser: the screens its routes render and the parts other modules'
// screens may use. Server code stays out of it, so a page never pulls the database client into its bundle.
export { ModulesScreen } from './ui/modules.screen.tsx';
