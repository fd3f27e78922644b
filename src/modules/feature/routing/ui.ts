// The routing module's public entry for the browser: the screens its routes render, and the graph view with the model
// that the Builder tab (brokerconfig, through routing.tabs) draws a declared document with. Server code stays out.
export { RoutingHomeScreen } from './ui/routing-home.screen.tsx';
export { RoutingScreen } from './ui/routing.screen.tsx';
export { RoutingGraphView } from './ui/graph/routing-graph-view.tsx';
export { buildRoutingGraph } from './model/build-graph.ts';
export type * from './model/routing-graph.ts';
export type * from './model/routing-view.ts';
