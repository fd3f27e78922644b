// The two refusals before a tap is installed on a node (spec: Capture reconciliation, "preflight conflict"), each
// answered with the broker configuration that would change the answer:
// - an EXCLUSIVE divert on the source address: exclusive diverts run first and take the message away from the
//   address, so a non-exclusive capture divert there would see nothing (it would shadow the capture);
// - a capture queue no security setting restricts: either the broker has security off (anyone who can connect may
//   read the copy), or the roles the broker's security settings give on the capture address would let a role read
//   (consume or browse) the copy that may read neither on the source address. The copy holds production payload, so
//   it must be at most as readable as the original.
import { ProblemError } from '@/modules/kernel/core/index.ts';
import {
  listDiverts,
  readCaptureSecurity,
  type CaptureSecurity,
  type DivertInfo,
  type ManagementClient,
  type RolePermissions,
} from '@/modules/platform/broker/index.ts';

const CAPTURE_REFUSED = 'capture-refused';

function refused(
  detail: string,
  reason: 'exclusive-divert' | 'unrestricted-queue' | 'node-unreachable',
  snippet: string | null,
): ProblemError {
  return new ProblemError({
    type: CAPTURE_REFUSED,
    title: 'Capture refused',
    status: 409,
    detail,
    reason,
    ...(snippet === null ? {} : { configSnippet: snippet }),
  });
}

/**
 * Refuses when a serving node could not be asked at all: the tap it would get is not checked, so nothing is stored
 * (a 409 naming the node, its failure and the advice, instead of an internal error).
 */
export function refuseUncheckedNode(
  nodeName: string,
  failure: { message: string; advice: string; configSnippet: string | null },
): ProblemError {
  return refused(
    `The capture could not be checked on ${nodeName}: ${failure.message} ${failure.advice} Nothing was stored.`,
    'node-unreachable',
    failure.configSnippet,
  );
}

const readers = (roles: readonly RolePermissions[]) =>
  new Set(roles.filter((role) => role.consume || role.browse).map((role) => role.name));

const rolesText = (names: Iterable<string>) => [...names].sort().join(',');

/** Refuses when an exclusive divert other than a tap sits on the source address. */
export function refuseExclusiveDivert(sourceAddress: string, diverts: readonly DivertInfo[]): void {
  const exclusive = diverts.find((divert) => divert.address === sourceAddress && divert.exclusive);
  if (!exclusive) return;
  throw refused(
    `The exclusive divert ${exclusive.name} on ${sourceAddress} takes every message away before a capture could copy it. Make it non-exclusive (messages then stay on ${sourceAddress} as well), or capture ${exclusive.forwardingAddress}, where it sends them.`,
    'exclusive-divert',
    [
      `<!-- etc/broker.xml (or updateDivert over management): let ${sourceAddress} keep its messages -->`,
      `<divert name="${exclusive.name}">`,
      `   <address>${sourceAddress}</address>`,
      `   <forwarding-address>${exclusive.forwardingAddress}</forwarding-address>`,
      ...(exclusive.filter ? [`   <filter string="${exclusive.filter}"/>`] : []),
      `   <exclusive>false</exclusive>`,
      `</divert>`,
    ].join('\n'),
  );
}

/** The security setting that makes the capture queue exactly as readable as its source address. */
function securitySnippet(captureMatch: string, sourceReaders: ReadonlySet<string>, securityOff: boolean): string {
  const roles = rolesText(sourceReaders) || '<the roles that may read the source address>';
  return [
    ...(securityOff
      ? ['<!-- etc/broker.xml, <core>: security on -->', '<security-enabled>true</security-enabled>']
      : []),
    `<!-- etc/broker.xml, <security-settings>: the capture copy readable only by who may read its source -->`,
    `<security-setting match="${captureMatch}">`,
    `   <permission type="consume" roles="${roles}"/>`,
    `   <permission type="browse" roles="${roles}"/>`,
    `</security-setting>`,
  ].join('\n');
}

/** Refuses when the capture queue would be readable by anyone the source address does not already let read. */
/** `captureMatch` names the capture queue(s) in the answer: one queue, or a match of the tap on every node. */
export function refuseUnrestrictedQueue(sourceAddress: string, captureMatch: string, security: CaptureSecurity): void {
  const sourceReaders = readers(security.sourceRoles);
  if (!security.securityEnabled)
    throw refused(
      `Security is off on this broker: anyone who can connect could read the capture queue ${captureMatch}, an unguarded copy of ${sourceAddress}'s messages. Turn security on.`,
      'unrestricted-queue',
      securitySnippet(captureMatch, sourceReaders, true),
    );
  const wider = [...readers(security.captureRoles)].filter((role) => !sourceReaders.has(role));
  if (wider.length === 0) return;
  throw refused(
    `Role(s) ${rolesText(wider)} could read the capture queue ${captureMatch} but may not read ${sourceAddress} itself. Restrict the capture address to the roles that may read ${sourceAddress}.`,
    'unrestricted-queue',
    securitySnippet(captureMatch, sourceReaders, false),
  );
}

/** Both refusals on one node, from what it reports now (its diverts, and the roles on the source and the tap). */
export async function preflightTap(
  client: ManagementClient,
  sourceAddress: string,
  names: { readonly queue: string; readonly match: string },
): Promise<void> {
  refuseExclusiveDivert(sourceAddress, await listDiverts(client));
  refuseUnrestrictedQueue(sourceAddress, names.match, await readCaptureSecurity(client, sourceAddress, names.queue));
}
