// The resources module's public entry for the browser: the screens its routes render.
export {
  AddressesScreen,
  ConnectionsScreen,
  ConsumersScreen,
  ProducersScreen,
  SessionsScreen,
} from './ui/list-screens.tsx';
export { AddressScreen } from './ui/address.screen.tsx';
export { ConnectionScreen } from './ui/connection.screen.tsx';
export { NodeScreen } from './ui/node.screen.tsx';
export { ResourcesHomeScreen } from './ui/resources-home.screen.tsx';
