// What Flotilla can do with one broker node, decided without changing anything on it. Each capability is AVAILABLE,
// UNAVAILABLE with the broker configuration that would change the answer, or UNKNOWN when nothing was able to tell.
// Write access is asked of Hawtio's JMX security MBean (canInvoke), which evaluates management.xml exactly as a
// real call would, so the probe never creates or deletes anything.
import { RBAC_SNIPPET, type ManagementError } from './management-error.ts';
import type { ManagementClient } from './management-client.ts';

type CapabilityName = 'MANAGEMENT_READ' | 'MANAGEMENT_WRITE' | 'NOTIFICATIONS' | 'MESSAGE_IO';

export type Verdict =
  | { readonly status: 'AVAILABLE' }
  | { readonly status: 'UNAVAILABLE'; readonly reason: string; readonly configSnippet: string | undefined }
  | { readonly status: 'UNKNOWN'; readonly reason: string };

export type CapabilityVerdicts = Record<CapabilityName, Verdict>;

/** Implemented by the native side from its cached subscription to activemq.notifications; no AMQP is opened here. */
export interface NotificationSubscriptionStates {
  subscriptionState(nodeKey: string): 'established' | { refused: string } | 'unknown';
}

/** Supplied by a caller that can open AMQP (the native side, or the probe command). */
export type MessageIoCheck = () => Promise<Verdict>;

const JMX_SECURITY_MBEAN = 'hawtio:type=security,area=jmx,name=ArtemisJMXSecurity';
const WRITE_OPERATIONS = ['createQueue', 'destroyQueue'];

const NOTIFICATIONS_SNIPPET = `<!-- etc/broker.xml: let Flotilla's role subscribe to management notifications -->
<security-setting match="activemq.notifications">
  <permission type="createNonDurableQueue" roles="amq,flotilla"/>
  <permission type="createAddress" roles="amq,flotilla"/>
  <permission type="consume" roles="amq,flotilla"/>
</security-setting>`;

const unavailable = (error: ManagementError): Verdict => ({
  status: 'UNAVAILABLE',
  reason: `${error.kind}: ${error.message}. ${error.advice}`,
  configSnippet: error.configSnippet,
});

async function probeRead(client: ManagementClient): Promise<{ verdict: Verdict; brokerMbean?: string }> {
  try {
    const brokerMbean = await client.brokerObjectName();
    const results = await client.call([
      { type: 'read', mbean: brokerMbean, attribute: ['Version', 'Active'] },
      {
        type: 'exec',
        mbean: brokerMbean,
        operation: 'listQueues(java.lang.String,int,int)',
        arguments: ['{"field":"","operation":"","value":""}', 1, 1],
      },
    ]);
    for (const result of results) if (!result.ok) return { verdict: unavailable(result.error), brokerMbean };
    return { verdict: { status: 'AVAILABLE' }, brokerMbean };
  } catch (error) {
    return { verdict: unavailable(error as ManagementError) };
  }
}

async function probeWrite(client: ManagementClient, brokerMbean: string): Promise<Verdict> {
  try {
    const results = await client.call(
      WRITE_OPERATIONS.map((operation) => ({
        type: 'exec' as const,
        mbean: JMX_SECURITY_MBEAN,
        operation: 'canInvoke(java.lang.String,java.lang.String)',
        arguments: [brokerMbean, operation],
      })),
    );
    for (const result of results) {
      if (!result.ok) {
        return { status: 'UNKNOWN', reason: `the broker's JMX security MBean did not answer: ${result.error.message}` };
      }
    }
    const refused = WRITE_OPERATIONS.filter((_, index) => {
      const result = results[index];
      return result?.ok === true && result.value !== true;
    });
    if (refused.length === 0) return { status: 'AVAILABLE' };
    return {
      status: 'UNAVAILABLE',
      reason: `management.xml does not let this user call ${refused.join(', ')} on the broker`,
      configSnippet: RBAC_SNIPPET,
    };
  } catch (error) {
    return unavailable(error as ManagementError);
  }
}

function notificationsVerdict(client: ManagementClient, states: NotificationSubscriptionStates | undefined): Verdict {
  const state = states?.subscriptionState(client.nodeKey) ?? 'unknown';
  if (state === 'established') return { status: 'AVAILABLE' };
  if (state === 'unknown') {
    return { status: 'UNKNOWN', reason: 'no notification subscription to this node has been attempted yet' };
  }
  return {
    status: 'UNAVAILABLE',
    reason: `the broker refused the subscription: ${state.refused}`,
    configSnippet: NOTIFICATIONS_SNIPPET,
  };
}

/** Read and write through management only: two calls, nothing changed on the broker (the scheduled recheck). */
export async function probeManagementCapabilities(
  client: ManagementClient,
): Promise<Pick<CapabilityVerdicts, 'MANAGEMENT_READ' | 'MANAGEMENT_WRITE'>> {
  const read = await probeRead(client);
  const write =
    read.verdict.status === 'AVAILABLE' && read.brokerMbean
      ? await probeWrite(client, read.brokerMbean)
      : read.verdict.status === 'UNAVAILABLE'
        ? read.verdict
        : { status: 'UNKNOWN' as const, reason: 'management read failed, so write could not be checked' };
  return { MANAGEMENT_READ: read.verdict, MANAGEMENT_WRITE: write };
}

export async function probeCapabilities(
  client: ManagementClient,
  options: { notifications?: NotificationSubscriptionStates; messageIo?: MessageIoCheck } = {},
): Promise<CapabilityVerdicts> {
  const management = await probeManagementCapabilities(client);
  const messageIo: Verdict = options.messageIo
    ? await options.messageIo()
    : {
        status: 'UNKNOWN',
        reason: 'not confirmed yet: the worker confirms it when its native connection to a serving node opens',
      };
  return {
    ...management,
    NOTIFICATIONS: notificationsVerdict(client, options.notifications),
    MESSAGE_IO: messageIo,
  };
}
