// The plugins module's public entry for server code: the only file the roof may import from it (besides module.ts).
export { handlePluginGateway, isPluginGatewayPath } from './server/gateway/gateway.ts';
