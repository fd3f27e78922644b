// The names a declared document would have Flotilla create or point messages at. None may reach the broker's own
// management or notification addresses (refused per field, as every input that names an address is), and none may
// take the service's own `flotilla.` names (capture taps live there).
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';
import { refuseReservedNames } from '@/modules/platform/clusters/index.ts';
import type { ConfigDocument } from '../model/document.ts';

const SERVICE_PREFIX = 'flotilla.';

function namesOf(document: ConfigDocument): [field: string, name: string][] {
  const names: [string, string][] = [];
  document.addressSettings.forEach((item, index) => {
    names.push([`addressSettings.${index}.match`, item.match]);
    if (item.settings.deadLetterAddress)
      names.push([`addressSettings.${index}.settings.deadLetterAddress`, item.settings.deadLetterAddress]);
    if (item.settings.expiryAddress)
      names.push([`addressSettings.${index}.settings.expiryAddress`, item.settings.expiryAddress]);
  });
  document.securitySettings.forEach((item, index) => names.push([`securitySettings.${index}.match`, item.match]));
  document.diverts.forEach((item, index) => {
    names.push([`diverts.${index}.name`, item.name], [`diverts.${index}.address`, item.address]);
    names.push([`diverts.${index}.forwardingAddress`, item.forwardingAddress]);
  });
  document.bridges.forEach((item, index) => {
    names.push([`bridges.${index}.name`, item.name], [`bridges.${index}.queueName`, item.queueName]);
    if (item.forwardingAddress) names.push([`bridges.${index}.forwardingAddress`, item.forwardingAddress]);
  });
  document.queues.forEach((item, index) => {
    names.push([`queues.${index}.name`, item.name], [`queues.${index}.address`, item.address]);
  });
  // Named as the request names them (`document.queues.0.name`), as the schema's own refusals are.
  return names.map(([field, name]) => [`document.${field}`, name]);
}

/** 400 naming the field when the document names a reserved address or a service-owned name. */
export async function refuseReservedDocumentNames(
  prisma: PrismaClient,
  clusterId: string,
  document: ConfigDocument,
): Promise<void> {
  const names = namesOf(document);
  const owned = names.filter(([, name]) => name.startsWith(SERVICE_PREFIX));
  if (owned.length > 0)
    throw new ProblemError(
      validationProblem(
        owned.map(([field]) => ({
          field,
          message: `names under "${SERVICE_PREFIX}" belong to Flotilla itself: not declared`,
        })),
      ),
    );
  await refuseReservedNames(prisma, clusterId, names, 'not declared');
}
