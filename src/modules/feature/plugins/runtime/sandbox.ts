// How a plugin process is started: plain node under the permission model, reading only its own folder and the
// bootstrap's, with a clean environment, and, where the OS lets us, inside a network namespace of its own so that the
// IPC socket pair it inherits is the only way out.
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { PluginLimits } from './limits.ts';

/** 'namespace': no network device but loopback, down (unshare); 'patched': the JavaScript fence alone. */
export type NetworkIsolation = 'namespace' | 'patched';

// The whole folder is readable by the child: the bootstrap and the two modules it imports, nothing else. Found from
// the project folder, not import.meta.url: Next.js bundles the web process's server code (and would turn a
// `new URL(…, import.meta.url)` into an asset without its imports), and it runs with the project as working folder.
const CHILD_FOLDER = realpathSync(path.resolve(process.cwd(), 'src/modules/feature/plugins/runtime/child'));
const BOOTSTRAP = path.join(CHILD_FOLDER, 'bootstrap.mjs');
// Node 20 calls the permission model experimental; later versions name the flag --permission.
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

function probe(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000, env: CHILD_ENVIRONMENT }, (error) => resolve(error === null));
  });
}

let isolation: Promise<{ network: NetworkIsolation; prefix: string[] }> | undefined;

/**
 * Probed once per host process: `unshare --net --map-root-user` works for any user where unprivileged user
 * namespaces are enabled; plain `unshare --net` only for root. Neither: the fence in child/fence.mjs stands alone.
 */
export function networkIsolation(): Promise<{ network: NetworkIsolation; prefix: string[] }> {
  isolation ??= (async () => {
    if (process.platform !== 'linux') return { network: 'patched', prefix: [] };
    const unshare = ['/usr/bin/unshare', '/bin/unshare'].find((candidate) => existsSync(candidate));
    if (!unshare) return { network: 'patched', prefix: [] };
    for (const flags of [['--net', '--map-root-user'], ['--net']]) {
      if (await probe(unshare, [...flags, process.execPath, '--version']))
        return { network: 'namespace', prefix: [unshare, ...flags] };
    }
    return { network: 'patched', prefix: [] };
  })();
  return isolation;
}

/** The whole environment of a plugin process: nothing of the host's (DATABASE_URL, secrets). */
export const CHILD_ENVIRONMENT = Object.freeze({ NODE_ENV: 'production' as const });

export interface SandboxCommand {
  command: string;
  args: string[];
  network: NetworkIsolation;
}

export async function sandboxCommand(directory: string, limits: PluginLimits): Promise<SandboxCommand> {
  const { network, prefix } = await networkIsolation();
  const node = [
    PERMISSION_FLAG,
    // One flag per path: Node 20.20 does not split a comma-separated list.
    `--allow-fs-read=${directory}`,
    `--allow-fs-read=${CHILD_FOLDER}`,
    // No --allow-fs-write, --allow-child-process, --allow-worker, --allow-addons or --allow-wasi: all refused.
    '--no-addons',
    '--disallow-code-generation-from-strings',
    '--disable-proto=throw',
    `--max-old-space-size=${limits.memoryMb}`,
    '--disable-warning=ExperimentalWarning',
    BOOTSTRAP,
  ];
  const [command, ...args] = [...prefix, process.execPath, ...node];
  return { command: command ?? process.execPath, args, network };
}
