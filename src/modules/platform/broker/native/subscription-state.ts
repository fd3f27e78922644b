// The cached state of each node's notification subscription. The capability probe reads NOTIFICATIONS
// from here (it must never open a connection), the `subscriptions` health indicator reports it. A refusal
// carries the broker configuration snippet that would fix it.
import type { ConnectionFailure } from './connection-failure.ts';

const NOTIFICATION_ADDRESS = 'activemq.notifications';

type RefusalCause =
  | 'permission'
  | 'address-missing'
  | 'authentication'
  | 'tls'
  | 'protocol-not-accepted'
  | 'unreachable'
  | 'connection-lost';

export interface SubscriptionRefusal {
  readonly refused: string;
  readonly snippet: string;
  readonly cause: RefusalCause;
  /** When the subscription stopped being established, ISO 8601. */
  readonly since: string;
}

export type SubscriptionState = 'established' | 'unknown' | SubscriptionRefusal;

const states = new Map<string, SubscriptionState>();

/** `unknown` for a node that has no subscription yet. Never opens a connection. */
export function subscriptionState(nodeKey: string): SubscriptionState {
  return states.get(nodeKey) ?? 'unknown';
}

export function allSubscriptionStates(): ReadonlyMap<string, SubscriptionState> {
  return states;
}

export function setSubscriptionState(nodeKey: string, state: SubscriptionState): void {
  const previous = states.get(nodeKey);
  // Keep the first `since` of an ongoing outage so the health view shows how long it has lasted.
  if (typeof previous === 'object' && typeof state === 'object' && previous.cause === state.cause) {
    states.set(nodeKey, { ...state, since: previous.since });
    return;
  }
  states.set(nodeKey, state);
}

export function forgetSubscriptionState(nodeKey: string): void {
  states.delete(nodeKey);
}

interface RefusalContext {
  readonly user: string | undefined;
  readonly host: string;
  readonly port: number;
  /** The notification address subscribed to (the node's own when read), named in the snippets. */
  readonly address?: string;
}

function securitySettingSnippet(user: string | undefined, address = NOTIFICATION_ADDRESS): string {
  const role = user ? `ROLE_OF_${user.toUpperCase()}` : 'ROLE_OF_THE_FLOTILLA_USER';
  return [
    `<!-- broker.xml, inside <security-settings>: let ${user ?? 'the Flotilla user'}'s role subscribe to notifications -->`,
    `<security-setting match="${address}">`,
    `  <permission type="createAddress" roles="${role}"/>`,
    `  <permission type="createNonDurableQueue" roles="${role}"/>`,
    `  <permission type="deleteNonDurableQueue" roles="${role}"/>`,
    `  <permission type="consume" roles="${role}"/>`,
    `</security-setting>`,
  ].join('\n');
}

function acceptorSnippet(context: RefusalContext): string {
  return [
    '<!-- broker.xml, inside <acceptors>: an acceptor on this host and port that speaks AMQP -->',
    `<acceptor name="artemis">tcp://${context.host}:${context.port}?protocols=CORE,AMQP;amqpIdleTimeout=60000</acceptor>`,
  ].join('\n');
}

function tlsAcceptorSnippet(context: RefusalContext): string {
  return [
    '<!-- broker.xml, inside <acceptors>: a TLS acceptor whose certificate is signed by the CA configured in',
    '     Flotilla for this node; needClientAuth only with the client certificate configured too -->',
    `<acceptor name="artemis-tls">tcp://${context.host}:${context.port}?sslEnabled=true;keyStorePath=/path/broker.p12;keyStorePassword=…;protocols=CORE,AMQP</acceptor>`,
  ].join('\n');
}

function addressSettingSnippet(address = NOTIFICATION_ADDRESS): string {
  return [
    '<!-- broker.xml, inside <address-settings>: let the notification address be created on first use -->',
    `<address-setting match="${address}">`,
    '  <auto-create-addresses>true</auto-create-addresses>',
    '</address-setting>',
  ].join('\n');
}

function usersSnippet(user: string | undefined): string {
  return [
    '<!-- etc/artemis-users.properties and etc/artemis-roles.properties (PropertiesLoginModule) -->',
    `${user ?? 'flotilla'} = <the password stored for this node in Flotilla>`,
    `amq = ${user ?? 'flotilla'}`,
  ].join('\n');
}

function refusal(cause: RefusalCause, refused: string, snippet: string): SubscriptionRefusal {
  return { refused, snippet, cause, since: new Date().toISOString() };
}

/** The state after the connection under the subscription failed or was lost. */
export function refusalFromConnection(failure: ConnectionFailure, context: RefusalContext): SubscriptionRefusal {
  switch (failure.kind) {
    case 'authentication':
      return refusal('authentication', failure.message, usersSnippet(context.user));
    case 'protocol-not-accepted':
      return refusal('protocol-not-accepted', failure.message, acceptorSnippet(context));
    case 'tls':
      return refusal('tls', failure.message, tlsAcceptorSnippet(context));
    case 'unreachable':
    case 'timeout':
      return refusal('unreachable', failure.message, acceptorSnippet(context));
    case 'closed-by-broker':
      return refusal('connection-lost', failure.message, acceptorSnippet(context));
  }
}

/** The state after the broker refused to attach the subscription link. */
export function refusalFromLink(
  error: { readonly condition?: string; readonly description?: string } | undefined,
  context: RefusalContext,
): SubscriptionRefusal {
  const condition = error?.condition ?? 'unknown';
  const detail = error?.description ? `${condition}: ${error.description}` : condition;
  if (condition === 'amqp:unauthorized-access' || /permission/i.test(error?.description ?? '')) {
    return refusal(
      'permission',
      `the broker refused the notification subscription (${detail})`,
      securitySettingSnippet(context.user, context.address),
    );
  }
  if (condition === 'amqp:not-found') {
    return refusal(
      'address-missing',
      `the notification address does not exist (${detail})`,
      addressSettingSnippet(context.address),
    );
  }
  return refusal('connection-lost', `the notification subscription was closed (${detail})`, acceptorSnippet(context));
}
