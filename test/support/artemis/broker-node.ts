// One Artemis broker instance made with `artemis create` in a temp folder, on its own free loopback ports, and its
// JVM's life cycle (start, graceful stop, kill -9, restart). Topologies in index.ts put several of these together.
import { execFile } from 'node:child_process';
import { brokerMbean, jolokia } from '../jolokia.ts';
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { spawnBroker, type BrokerProcess } from './broker-process.ts';

const execFileAsync = promisify(execFile);

const ADMIN_USER = 'admin';
const ADMIN_PASSWORD = 'admin';
const CLUSTER_USER = 'cluster';
const CLUSTER_PASSWORD = 'cluster-secret';
// Small heaps: the test machine has 2 cores and several brokers may run at once. The profile hard-codes -Xms512M,
// which the JVM refuses above a smaller -Xmx, so both are rewritten.
const HEAP = { initial: '64M', max: '256M' };
// Under the test runner a broker lives for seconds to minutes on two shared cores, so its JVM is tuned for short
// lives: the C1 compiler only (C2's optimising work would not pay off before the broker stops) and the serial
// collector in place of G1 and its string deduplication. Measured on 2026-12-05: a start to Jolokia's first answer
// took 6.9 CPU-seconds with Artemis's profile and 3.9 with these, `artemis create` 1.4 and 0.75. The broker's own jars
// are not verified again at every start either (the JDK's classes never are): measured on 2026-12-07, four starts each,
// 4.9 → 4.3 CPU-seconds. Benchmarks and the demo fleet (no VITEST in their environment) keep Artemis's own profile,
// as an operator's broker runs.
const SHORT_LIVED_JVM = process.env.VITEST
  ? '-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote'
  : undefined;
const STANDARD_GC = /-XX:\+UseG1GC -XX:\+UseStringDeduplication/;
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;

export type NodeRole = 'live' | 'ha-primary' | 'ha-backup';

export interface ExtraUser {
  readonly user: string;
  readonly password: string;
  /** JAAS role; it is also allowed to log in to the console (Jolokia), see HAWTIO_ROLES. */
  readonly role: string;
}

/** Serve the web server (Jolokia) over https instead of http; see SingleNodeOptions.managementTls. */
export interface ManagementTls {
  /** PKCS12 key store with the server certificate (bootstrap.xml keyStorePath). */
  readonly keyStorePath: string;
  readonly keyStorePassword: string;
  /** When set, the binding demands a client certificate signed by a CA in this PKCS12 trust store. */
  readonly clientAuth?: { readonly trustStorePath: string; readonly trustStorePassword: string };
  /** What the harness itself presents to reach Jolokia while starting the node: PEM CA, client cert and key. */
  readonly client: { readonly ca: string; readonly cert?: string; readonly key?: string };
}

export interface NodeSpec {
  readonly name: string;
  readonly role: NodeRole;
  readonly instanceDir: string;
  readonly amqpPort: number;
  readonly managementPort: number;
  /** tcp://127.0.0.1:<port> of the cluster partners (static discovery: multicast is unreliable on loopback). */
  readonly staticCluster?: readonly string[];
  readonly brokerXmlEdits?: (xml: string) => string;
  readonly managementXmlEdits?: (xml: string) => string;
  readonly extraUsers?: readonly ExtraUser[];
  /** -Xmx, default 256M; 10,000 queues need about 1G. */
  readonly maxHeap?: string;
  readonly managementTls?: ManagementTls;
}

function createArguments(spec: NodeSpec): string[] {
  const args = [
    'create',
    '--silent',
    '--force',
    '--no-autotune',
    '--require-login',
    `--user=${ADMIN_USER}`,
    `--password=${ADMIN_PASSWORD}`,
    '--role=amq',
    `--name=${spec.name}`,
    '--host=127.0.0.1',
    '--http-host=127.0.0.1',
    `--http-port=${spec.managementPort}`,
    `--default-port=${spec.amqpPort}`,
    // Only the all-protocol acceptor: the per-protocol defaults (5672, 1883, 61613, 5445) would collide with the
    // RabbitMQ, Mosquitto and other services of this machine and with other brokers.
    '--no-amqp-acceptor',
    '--no-stomp-acceptor',
    '--no-mqtt-acceptor',
    '--no-hornetq-acceptor',
    `--java-memory=${spec.maxHeap ?? HEAP.max}`,
  ];
  if (spec.staticCluster) {
    args.push(`--staticCluster=${spec.staticCluster.join(',')}`);
    args.push(`--cluster-user=${CLUSTER_USER}`, `--cluster-password=${CLUSTER_PASSWORD}`);
  }
  if (spec.role !== 'live') args.push('--replicated');
  if (spec.role === 'ha-backup') args.push('--backup');
  args.push(spec.instanceDir);
  return args;
}

function editFile(file: string, edit: (text: string) => string): void {
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

/** Runs `artemis create` and applies the harness's and the test's edits to the generated configuration. */
export async function createInstance(spec: NodeSpec, artemisHome: string): Promise<void> {
  await execFileAsync(path.join(artemisHome, 'bin', 'artemis'), createArguments(spec), {
    maxBuffer: 16 * 1024 * 1024,
    // The CLI's own default is -Xms512M -Xmx1024M.
    ...(SHORT_LIVED_JVM ? { env: { ...process.env, JAVA_ARGS: `-Xms32M -Xmx256M ${SHORT_LIVED_JVM}` } } : {}),
  });
  const etc = path.join(spec.instanceDir, 'etc');
  const extraRoles = (spec.extraUsers ?? []).map((user) => user.role);
  editFile(path.join(etc, 'artemis.profile'), (profile) => {
    if (SHORT_LIVED_JVM && !STANDARD_GC.test(profile))
      throw new Error(
        `artemis.profile no longer sets ${STANDARD_GC.source}: the short-lived JVM options need a new anchor`,
      );
    return profile
      .replace(/-Xms\S+/, `-Xms${HEAP.initial}`)
      .replace(/-Xmx\S+/, `-Xmx${spec.maxHeap ?? HEAP.max}`)
      .replace(STANDARD_GC, (standard) => SHORT_LIVED_JVM ?? standard)
      .replace(
        /^HAWTIO_ROLES='([^']*)'/m,
        (_all, roles: string) => `HAWTIO_ROLES='${[roles, ...extraRoles].join(',')}'`,
      );
  });
  for (const user of spec.extraUsers ?? []) {
    appendFileSync(path.join(etc, 'artemis-users.properties'), `\n${user.user} = ${user.password}\n`);
    // A role already listed (e.g. amq, which admin holds) gets the user added; a second `amq =` line would
    // replace the first and lock admin out of Jolokia.
    editFile(path.join(etc, 'artemis-roles.properties'), (roles) => {
      const line = new RegExp(`^(${user.role}\\s*=.*)$`, 'm');
      return line.test(roles) ? roles.replace(line, `$1,${user.user}`) : `${roles}\n${user.role} = ${user.user}\n`;
    });
  }
  if (spec.role === 'ha-primary') {
    // Mandatory when an old primary is restarted after a failover, or it comes back active with stale data.
    editFile(path.join(etc, 'broker.xml'), (xml) =>
      xml.replace(/<primary>/, '<primary>\n<check-for-active-server>true</check-for-active-server>'),
    );
  }
  if (spec.brokerXmlEdits) editFile(path.join(etc, 'broker.xml'), spec.brokerXmlEdits);
  if (spec.managementXmlEdits) editFile(path.join(etc, 'management.xml'), spec.managementXmlEdits);
  const tls = spec.managementTls;
  if (tls) {
    const binding = /<binding name="artemis" uri="http:\/\/([^"]+)"/;
    editFile(path.join(etc, 'bootstrap.xml'), (xml) => {
      if (!binding.test(xml)) throw new Error('bootstrap.xml has no http binding named artemis to switch to https');
      const attributes = [
        `keyStorePath="${tls.keyStorePath}"`,
        `keyStorePassword="${tls.keyStorePassword}"`,
        'keyStoreType="PKCS12"',
        `clientAuth="${tls.clientAuth ? 'true' : 'false'}"`,
        ...(tls.clientAuth
          ? [
              `trustStorePath="${tls.clientAuth.trustStorePath}"`,
              `trustStorePassword="${tls.clientAuth.trustStorePassword}"`,
              'trustStoreType="PKCS12"',
            ]
          : []),
      ];
      return xml.replace(
        binding,
        (_all, hostPort: string) => `<binding name="artemis" uri="https://${hostPort}" ${attributes.join(' ')}`,
      );
    });
  }
}

/** POST of a JSON body over https with a custom CA and client certificate (fetch cannot take them). */
function postHttps(
  url: string,
  headers: Record<string, string>,
  body: string,
  tls: ManagementTls['client'],
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      { method: 'POST', headers, ca: tls.ca, cert: tls.cert, key: tls.key, timeout: 5_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url}`)));
    request.on('error', reject);
    request.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(1_000);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

export class ArtemisNode {
  readonly user = ADMIN_USER;
  readonly password = ADMIN_PASSWORD;
  readonly managementUrl: string;
  readonly amqpUrl: string;
  private process: BrokerProcess | undefined;

  constructor(readonly spec: NodeSpec) {
    const scheme = spec.managementTls ? 'https' : 'http';
    this.managementUrl = `${scheme}://127.0.0.1:${spec.managementPort}/console/jolokia`;
    this.amqpUrl = `amqp://127.0.0.1:${spec.amqpPort}`;
  }

  get name(): string {
    return this.spec.name;
  }
  get amqpPort(): number {
    return this.spec.amqpPort;
  }
  get managementPort(): number {
    return this.spec.managementPort;
  }
  get instanceDir(): string {
    return this.spec.instanceDir;
  }
  get logFile(): string {
    return path.join(this.spec.instanceDir, 'log', 'harness-console.log');
  }

  isRunning(): boolean {
    return this.process !== undefined && !this.process.hasExited();
  }

  /** Starts the JVM and waits until Jolokia answers (and, for a plain live node, until it is active and accepts). */
  async start(): Promise<void> {
    if (this.isRunning()) return;
    const brokerProcess = spawnBroker(this.spec.instanceDir, this.logFile);
    this.process = brokerProcess;
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (brokerProcess.hasExited()) throw new BrokerExitedError(this.name, this.logFile);
      if (await this.isReady()) return;
      if (Date.now() > deadline) {
        brokerProcess.signal('SIGKILL');
        throw new Error(`${this.name} was not ready after ${START_TIMEOUT_MS} ms; see ${this.logFile}`);
      }
      await sleep(250);
    }
  }

  /** Graceful stop (SIGTERM runs the broker's shutdown hook); kill -9 when it takes too long. */
  async stop(): Promise<void> {
    const brokerProcess = this.process;
    if (!brokerProcess || brokerProcess.hasExited()) return;
    brokerProcess.signal('SIGTERM');
    const stopped = await Promise.race([
      brokerProcess.exited.then(() => true),
      sleep(STOP_TIMEOUT_MS).then(() => false),
    ]);
    if (!stopped) await this.kill();
  }

  /** kill -9: the broker gets no chance to say goodbye (crash and failover tests). */
  async kill(): Promise<void> {
    const brokerProcess = this.process;
    if (!brokerProcess || brokerProcess.hasExited()) return;
    brokerProcess.signal('SIGKILL');
    await brokerProcess.exited;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** One Jolokia read of the broker MBean with admin credentials; undefined when it does not answer. */
  readBrokerAttributes(attributes: readonly string[]): Promise<Record<string, unknown> | undefined> {
    return this.readAttributes(brokerMbean(this.name), attributes);
  }

  private async readAttributes(
    mbean: string,
    attributes: readonly string[],
  ): Promise<Record<string, unknown> | undefined> {
    try {
      if (!this.spec.managementTls) {
        return (await jolokia(this, { type: 'read', mbean, attribute: attributes }, 5_000)) as
          Record<string, unknown> | undefined;
      }
      // Over TLS with a client certificate, which fetch cannot present: node:https.
      const headers = {
        'Content-Type': 'application/json',
        Origin: new URL(this.managementUrl).origin,
        Authorization: `Basic ${Buffer.from(`${this.user}:${this.password}`).toString('base64')}`,
      };
      const body = JSON.stringify({ type: 'read', mbean, attribute: attributes });
      const { status, text } = await postHttps(this.managementUrl, headers, body, this.spec.managementTls.client);
      if (status !== 200) return undefined;
      const reply = JSON.parse(text) as { status?: number; value?: Record<string, unknown> };
      return reply.status === 200 ? reply.value : undefined;
    } catch {
      return undefined;
    }
  }

  private async isReady(): Promise<boolean> {
    const state = await this.readBrokerAttributes(['Started', 'Active']);
    if (state?.Started !== true) return false;
    // Ports are planned seconds before the JVM binds them, and every topology names its nodes live1, live2…: another
    // file's broker of the same name that took our management port first would answer as ours (and vanish under the
    // test later: InstanceNotFoundException in two clean-clone runs). The JVM that answers must be the one we started;
    // if not, ours is stopped and the topology starts again on fresh ports (onFreshPortsOnce).
    const answering = (await this.readAttributes('java.lang:type=Runtime', ['Pid']))?.Pid;
    if (answering === undefined) return false;
    if (answering !== this.process?.child.pid) {
      await this.kill();
      throw new BrokerExitedError(
        this.name,
        this.logFile,
        `another JVM (pid ${JSON.stringify(answering)}) answers on management port ${String(this.managementPort)}`,
      );
    }
    if (this.spec.role !== 'live') return true; // a passive backup never becomes Active on its own
    return state.Active === true && (await canConnect(this.amqpPort));
  }

  /** Waits until the broker serves clients (e.g. a backup after failover). */
  async waitUntilActive(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const state = await this.readBrokerAttributes(['Active']);
      if (state?.Active === true && (await canConnect(this.amqpPort))) return;
      await sleep(250);
    }
    throw new Error(`${this.name} did not become active within ${timeoutMs} ms; see ${this.logFile}`);
  }

  /** Waits until a replicated pair reports its replica in sync (read on either side). */
  async waitUntilReplicaInSync(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const state = await this.readBrokerAttributes(['ReplicaSync']);
      if (state?.ReplicaSync === true) return;
      await sleep(250);
    }
    throw new Error(`${this.name} did not report ReplicaSync within ${timeoutMs} ms; see ${this.logFile}`);
  }
}

/** The JVM ended before it was ready. The message keeps the end of its log, which goes with the topology's folder. */
export class BrokerExitedError extends Error {
  /** `why`: what stopped it, when the harness did (the JVM's log says the rest). */
  constructor(name: string, logFile: string, why = 'exited while starting') {
    let tail: string;
    try {
      tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
    } catch {
      tail = '(no log written)';
    }
    super(`${name} ${why}; the end of ${logFile}:\n${tail}`);
  }
}
