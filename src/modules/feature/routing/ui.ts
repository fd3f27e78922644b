// The routing module's public entry for the browser: the screens its routes render, and the graph view the Builder
// tab (brokerconfig, through routing.tabs) draws a declared document with. Server code stays out of it.
export { RoutingHomeScreen } from './ui/routing-home.screen.tsx';
export { RoutingScreen } from './ui/routing.screen.tsx';
