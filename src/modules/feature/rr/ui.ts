// The rr module's public entry for the browser: the screens its routes render. Server code stays out of it, so a page
// never pulls the database client into its bundle.
export { RrFlowScreen } from './ui/flow.screen.tsx';
export { RrFlowsScreen } from './ui/flows.screen.tsx';
export { RrHomeScreen } from './ui/rr-home.screen.tsx';
