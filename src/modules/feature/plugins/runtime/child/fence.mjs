// The JavaScript fence a plugin process puts up before the plugin's bundle is imported. Node 20's permission model
// (the command line's --experimental-permission) already refuses file system access outside the plugin's folder, child
// processes, workers, addons, WASI and process.binding; it has no switch for the network, so this file cuts every
// networking entry point of the standard library and freezes the cut. Where the host could start the process in a
// network namespace of its own, this is the second fence; elsewhere it is the only one.
import dgram from 'node:dgram';
import dns from 'node:dns';
import dnsPromises from 'node:dns/promises';
import http2 from 'node:http2';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

const NETWORK = { code: 'ERR_PLUGIN_NETWORK_DENIED', why: 'a plugin has no network' };
const PROCESS = { code: 'ERR_PLUGIN_PROCESS_DENIED', why: 'a plugin reaches nothing beyond its own process' };

function denied(what, fence) {
  return function deniedByPluginSandbox() {
    const error = new Error(`${what} is not available to plugins: ${fence.why}`);
    error.code = fence.code;
    throw error;
  };
}

// Replaced in place and made read-only, so neither the bundle nor anything it loads can put the original back.
function cut(target, key, what, fence = NETWORK) {
  Object.defineProperty(target, key, {
    value: denied(what, fence),
    writable: false,
    configurable: false,
    enumerable: true,
  });
}

function cutAllFunctions(target, prefix) {
  for (const key of Object.keys(target)) {
    if (typeof target[key] === 'function') cut(target, key, `${prefix}.${key}`);
  }
}

export function fenceNetwork() {
  cut(net.Socket.prototype, 'connect', 'net.Socket#connect');
  cut(net.Server.prototype, 'listen', 'net.Server#listen');
  for (const key of ['connect', 'createConnection', 'createServer']) cut(net, key, `net.${key}`);
  cut(tls, 'connect', 'tls.connect');
  cut(tls, 'createServer', 'tls.createServer');
  cut(http2, 'connect', 'http2.connect');
  cut(dgram, 'createSocket', 'dgram.createSocket');
  for (const key of ['bind', 'connect', 'send']) cut(dgram.Socket.prototype, key, `dgram.Socket#${key}`);
  // Resolver classes first: cutAllFunctions replaces the constructors themselves too.
  cutAllFunctions(dns.Resolver.prototype, 'dns.Resolver#');
  cutAllFunctions(dnsPromises.Resolver.prototype, 'dns.promises.Resolver#');
  cutAllFunctions(dns, 'dns');
  cutAllFunctions(dnsPromises, 'dns.promises');
  // `import { connect } from 'node:net'` reads the ES module facade, which copies the exports once: refresh it.
  syncBuiltinESMExports();
  for (const key of ['fetch', 'WebSocket', 'EventSource']) {
    Object.defineProperty(globalThis, key, { value: undefined, writable: false, configurable: false });
  }
  for (const target of [net.Socket.prototype, net.Server.prototype, dgram.Socket.prototype]) Object.freeze(target);
}

// What the permission model leaves open on `process`: signals to other processes of the same user, and the binding
// doors (already refused, made to refuse with a clear message whatever the Node version).
export function fenceProcess() {
  cut(process, 'kill', 'process.kill', PROCESS);
  cut(process, 'binding', 'process.binding', PROCESS);
  cut(process, '_linkedBinding', 'process._linkedBinding', PROCESS);
  cut(process, 'dlopen', 'process.dlopen', PROCESS);
}
