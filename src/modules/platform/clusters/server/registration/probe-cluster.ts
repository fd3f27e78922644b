// The probe behind registration (and its dry run): discover the nodes from the seed, read capabilities on the
// seed, then run every enabled module's registration checks on what was found, with management clients that are
// closed when it returns (probe-clients.ts).
import type { BlockList } from 'node:net';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { registrationChecks } from '../../module.ts';
import type { RegistrationCheckOutcome, RegistrationProbe } from './registration-check.ts';
import { type ManagementLimits, probeCapabilities } from '@/modules/platform/broker/index.ts';
import { discoverNodes, type GivenNode } from './discovery.ts';
import { withProbeClients, type ProbeTls } from './probe-clients.ts';

const CAPABILITY_NAMES = ['MANAGEMENT_READ', 'MANAGEMENT_WRITE', 'NOTIFICATIONS', 'MESSAGE_IO'] as const;

export interface ProbeRequest {
  readonly purpose: RegistrationProbe['purpose'];
  readonly name: string;
  readonly nodes: readonly GivenNode[];
  readonly credentials: { readonly username: string; readonly password: string };
  readonly tls?: ProbeTls | null;
}

interface CheckResult extends RegistrationCheckOutcome {
  readonly id: string;
  readonly title: string;
  readonly blocking: boolean;
}

export interface ProbeResult {
  readonly probe: Omit<RegistrationProbe, 'call'>;
  readonly checks: CheckResult[];
  /** A blocking check failed: registration must be refused. */
  readonly refused: boolean;
}

async function runChecks(registry: ModuleRegistry, probe: RegistrationProbe): Promise<CheckResult[]> {
  const declarations = registry.contributionsTo(registrationChecks).map((contributed) => contributed.value);
  return Promise.all(
    declarations.map(async ({ id, title, blocking, load }) => {
      try {
        return { id, title, blocking, ...(await (await load()).run(probe)) };
      } catch (error) {
        // A broken check must not hide the others' answers; it fails on its own.
        return { id, title, blocking, status: 'fail' as const, detail: `The check itself failed: ${String(error)}` };
      }
    }),
  );
}

export async function probeCluster(
  registry: ModuleRegistry,
  limits: ManagementLimits,
  request: ProbeRequest,
  /** clusters.allowed-networks: every node contacted must resolve inside it. */
  allowedNetworks: BlockList,
): Promise<ProbeResult> {
  const access = { credentials: request.credentials, tls: request.tls, limits, allowedNetworks };
  return withProbeClients(access, async (clientFor) => {
    const discovery = await discoverNodes(clientFor, request.nodes);
    const seed = discovery.nodes[0];
    const verdicts = seed?.state ? await probeCapabilities(clientFor(seed.managementUrl)) : undefined;
    const capabilities: RegistrationProbe['capabilities'] = Object.fromEntries(
      CAPABILITY_NAMES.map((name): [string, RegistrationProbe['capabilities'][string]] => {
        const verdict = verdicts?.[name];
        if (!verdict) {
          return [name, { value: 'UNKNOWN' as const, detail: seed?.error?.message ?? 'the seed did not answer' }];
        }
        if (verdict.status === 'AVAILABLE') return [name, { value: 'AVAILABLE' as const, detail: '' }];
        if (verdict.status === 'UNKNOWN') return [name, { value: 'UNKNOWN' as const, detail: verdict.reason }];
        return [name, { value: 'UNAVAILABLE', detail: verdict.reason, snippet: verdict.configSnippet }];
      }),
    );
    // What the answer keeps is plain data; the checks also get a `call` on this probe's clients.
    const plain: Omit<RegistrationProbe, 'call'> = {
      purpose: request.purpose,
      conflicts: discovery.conflicts.map((conflict) => conflict.message),
      clusterName: request.name,
      username: request.credentials.username,
      nodes: discovery.nodes,
      capabilities,
    };
    const checks = await runChecks(registry, {
      ...plain,
      call: async (managementUrl, requests) => {
        const results = await clientFor(managementUrl).call(requests as never);
        return results.map((result) => (result.ok ? result.value : { error: result.error.message }));
      },
    });
    return { probe: plain, checks, refused: checks.some((check) => check.blocking && check.status === 'fail') };
  });
}
