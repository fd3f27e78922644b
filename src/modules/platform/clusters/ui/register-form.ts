// The register form's state and the request it makes: one seed node (plus any nodes typed by hand), credentials and
// optional TLS material; a dry run for the probe, a real one for Save. Pure, so it is tested without a server.
import { problemOf } from '@/ui/data/problem.ts';
import type { RouterInputs } from '@/ui/data/trpc.ts';
import type { CheckResult, ProbedNode } from './check-results.tsx';

type RegisterInput = RouterInputs['clusters']['register'];

export interface RegisterForm {
  name: string;
  environment: string;
  description: string;
  managementUrl: string;
  amqpUrl: string;
  /** More nodes, one per line: `managementUrl [amqpUrl]`, to override or add to what discovery finds. */
  moreNodes: string;
  username: string;
  password: string;
  ca: string;
  clientCertificate: string;
  clientKey: string;
}

export const EMPTY_REGISTER_FORM: RegisterForm = {
  name: '',
  environment: '',
  description: '',
  managementUrl: '',
  amqpUrl: '',
  moreNodes: '',
  username: '',
  password: '',
  ca: '',
  clientCertificate: '',
  clientKey: '',
};

export function registerInput(form: RegisterForm, dryRun: boolean): RegisterInput {
  const extra = form.moreNodes
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([managementUrl]) => Boolean(managementUrl))
    .map(([managementUrl = '', amqpUrl]) => ({ managementUrl, ...(amqpUrl ? { amqpUrl } : {}) }));
  return {
    name: form.name,
    environment: form.environment,
    description: form.description,
    nodes: [{ managementUrl: form.managementUrl, ...(form.amqpUrl ? { amqpUrl: form.amqpUrl } : {}) }, ...extra],
    credentials: { username: form.username, password: form.password },
    ...(form.ca.trim() || form.clientCertificate.trim() || form.clientKey.trim()
      ? {
          tls: {
            ...(form.ca.trim() ? { ca: form.ca } : {}),
            ...(form.clientCertificate.trim() ? { clientCertificate: form.clientCertificate } : {}),
            ...(form.clientKey.trim() ? { clientKey: form.clientKey } : {}),
          },
        }
      : {}),
    dryRun,
  };
}

export interface ProbeAnswer {
  readonly checks: readonly CheckResult[];
  readonly nodes: readonly ProbedNode[];
  readonly refused: boolean;
}

/** A 422 refusal carries the checks too; show them like a successful probe's. */
export function refusedAnswerOf(error: unknown): ProbeAnswer | undefined {
  const problem = problemOf(error) as { type: string; checks?: CheckResult[]; nodes?: ProbedNode[] };
  if (problem.type !== 'registration-checks-failed' || !problem.checks) return undefined;
  return { checks: problem.checks, nodes: problem.nodes ?? [], refused: true };
}
