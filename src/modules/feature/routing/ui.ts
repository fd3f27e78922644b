// The routing module's public entry for the browser: the screens its routes render, and the graph view with the model
// that the Builder tab (brokerconfig, through routing.tabs) draws a declared document with. Server code stays out.
export { RoutingHomeScreen } from './ui/routing-home.screen.tsx';
export { RoutingScreen } from './ui/routing.screen.tsx';
export { RoutingGraphView, type RoutingGraphViewProps } from './ui/graph/routing-graph-view.tsx';
export { RoutingItemFacts } from './ui/graph/item-facts.tsx';
export { buildRoutingGraph, matchesAddress } from './model/build-graph.ts';
export type * from './model/routing-graph.ts';
export type * from './model/routing-view.ts';
