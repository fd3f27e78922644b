// `npm run fleet -- up|status|down --json` for real, in a temp data dir (FLEET_DATA_DIR): two clusters of real
// brokers come up on loopback, their management URLs answer Jolokia with the printed credentials, the slow queue's
// backlog grows, and `down` leaves no process behind. Four JVMs on two cores: the start takes a minute or two.
import { execFile } from 'node:child_process';
import { jolokiaRead } from '../support/jolokia.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const execFileAsync = promisify(execFile);
const UP_TIMEOUT_MS = 6 * 60_000;

interface NodeInfo {
  name: string;
  managementUrl: string;
  amqpUrl: string;
  user: string;
  password: string;
}
interface Status {
  clusters: { name: string; nodes: NodeInfo[] }[];
}

let dataDir: string;
let servePid: number | undefined;

async function fleet(args: string[], timeoutMs = 90_000): Promise<string> {
  const { stdout } = await execFileAsync('npm', ['run', '--silent', 'fleet', '--', ...args], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, FLEET_DATA_DIR: dataDir },
    timeout: timeoutMs,
    maxBuffer: 4 * 1024 * 1024,
  });
  return stdout;
}

function parseStatus(stdout: string): Status {
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as Status;
}

/** Pids of processes whose command line names the data dir (the broker JVMs: -Dartemis.instance=<dir>/…). */
function processesOfDataDir(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dataDir)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function isJava(pid: number): boolean {
  try {
    return /(^|\/)java$/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '');
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let status: Status;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'flotilla-fleet-'));
  const upOutput = await fleet(['up', '--json'], UP_TIMEOUT_MS);
  expect(parseStatus(upOutput).clusters).toHaveLength(2);
  servePid = (JSON.parse(readFileSync(path.join(dataDir, 'fleet.json'), 'utf8')) as { pid: number }).pid;
}, UP_TIMEOUT_MS + 30_000);

afterAll(async () => {
  // Cleanup only (the last test asserts `down`): stop whatever is still running, then remove the data dir.
  await fleet(['down']).catch(() => undefined);
  if (servePid !== undefined && isAlive(servePid)) process.kill(servePid, 'SIGKILL');
  for (const pid of processesOfDataDir()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe('npm run fleet', () => {
  it('status --json lists the two-node cluster and the HA pair on 127.0.0.1 with credentials', async () => {
    status = parseStatus(await fleet(['status', '--json']));
    expect(status.clusters.map((cluster) => cluster.name)).toEqual(['cluster', 'ha-pair']);
    expect(status.clusters.map((cluster) => cluster.nodes.map((node) => node.name))).toEqual([
      ['live1', 'live2'],
      ['primary', 'backup'],
    ]);
    for (const node of status.clusters.flatMap((cluster) => cluster.nodes)) {
      expect(node.managementUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/jolokia$/);
      expect(node.amqpUrl).toMatch(/^amqp:\/\/127\.0\.0\.1:\d+$/);
      expect(node.user).toBe('admin');
      expect(node.password).not.toBe('');
    }
    // Four broker JVMs run from the data dir (what `down` must stop).
    expect(processesOfDataDir().filter(isJava)).toHaveLength(4);
  });

  it('a management URL answers a Jolokia read with the listed credentials', async () => {
    const node = status.clusters[0]?.nodes[0] as NodeInfo;
    const version = await jolokiaRead(node, `org.apache.activemq.artemis:broker="${node.name}"`, 'Version');
    expect(version).toMatch(/^2\.\d+\.\d+/);
  });

  it("the slow queue's backlog grows: its consumer cannot keep up", async () => {
    const primary = status.clusters[1]?.nodes[0] as NodeInfo;
    const queue = 'slow.jobs';
    const mbean =
      `org.apache.activemq.artemis:broker="${primary.name}",component=addresses,address="${queue}",` +
      `subcomponent=queues,routing-type="anycast",queue="${queue}"`;
    const before = (await jolokiaRead(primary, mbean, 'MessageCount')) as number;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const after = (await jolokiaRead(primary, mbean, 'MessageCount')) as number;
    // Two a second arrive, one every two seconds is acknowledged: about +9 in six seconds.
    expect(after - before).toBeGreaterThanOrEqual(3);
  });

  it('down stops the serve process and every broker JVM of the data dir', async () => {
    expect(servePid).toBeDefined();
    expect(isAlive(servePid as number)).toBe(true);
    await fleet(['down']);
    expect(isAlive(servePid as number)).toBe(false);
    expect(processesOfDataDir()).toEqual([]);
    expect(parseStatus(await fleet(['status', '--json'])).clusters).toEqual([]);
  });
});
