// The plugins module's public entry for server code: the only file the roof may import from it (besides module.ts).
export { handlePluginGateway } from './server/gateway/gateway.ts';
export { serveUiBundle } from './server/ui-bundles.ts';
// How a plugin folder becomes its archive (npm run plugin:pack, and tests that build the sample).
export { packPluginFolder, PluginPackError } from './pack/pack-folder.ts';
