// What a name in a broker-side filter (a queue's or a divert's) reads from a probe message, as artemis-server's
// FilterImpl resolves it: AMQ-prefixed names are the message's header fields (AMQPriority, AMQDurable 'DURABLE' or
// 'NON_DURABLE', AMQTimestamp, AMQExpiration, AMQUserID, AMQSize, AMQAddress, AMQGroupID), then properties. JMSType,
// JMSCorrelationID, JMSXGroupID and JMSXUserID are carried as properties by core and AMQP messages alike. The other
// JMS header names are NOT translated in a broker filter (only consumers' selectors are translated by the clients):
// `JMSPriority > 4` in a divert's filter reads a property called JMSPriority, which a message does not carry.
import { UNKNOWABLE, type SelectorLookup } from '../selector/selector-eval.ts';
import type { ProbeMessage } from './where-types.ts';

const DEFAULT_PRIORITY = 4;

/** JMS header names a broker filter does not translate, with the name that works there. */
export const UNTRANSLATED_JMS_HEADERS: Readonly<Record<string, string>> = {
  JMSPriority: 'AMQPriority',
  JMSTimestamp: 'AMQTimestamp',
  JMSDeliveryMode: "AMQDurable (values 'DURABLE' and 'NON_DURABLE')",
  JMSMessageID: 'AMQUserID',
  JMSExpiration: 'AMQExpiration',
};

type Lookup = ReturnType<SelectorLookup>;

function headerField(message: ProbeMessage, name: string, address: string): Lookup | undefined {
  const { headers } = message;
  switch (name) {
    case 'AMQPriority':
      return headers.priority ?? DEFAULT_PRIORITY;
    case 'AMQDurable':
      if (headers.durable === undefined) return UNKNOWABLE;
      return headers.durable ? 'DURABLE' : 'NON_DURABLE';
    case 'AMQTimestamp':
      return headers.timestamp ?? UNKNOWABLE;
    case 'AMQExpiration':
      return headers.expiration ?? 0;
    case 'AMQUserID':
      if (headers.messageId === undefined) return UNKNOWABLE;
      return headers.messageId.startsWith('ID:') ? headers.messageId : `ID:${headers.messageId}`;
    case 'AMQSize':
      return UNKNOWABLE;
    case 'AMQAddress':
      return address;
    case 'AMQGroupID':
      return headers.groupId ?? null;
    case 'JMSType':
      return headers.type;
    case 'JMSCorrelationID':
      return headers.correlationId;
    case 'JMSXGroupID':
      return headers.groupId;
    case 'JMSXUserID':
      return headers.userId;
    default:
      return undefined;
  }
}

/** The lookup for the message as it is at `address` (a diverted copy carries its new address). */
export function probeLookup(message: ProbeMessage, address: string): SelectorLookup {
  return (name) => {
    const header = headerField(message, name, address);
    if (header !== undefined && header !== null) return header;
    return Object.hasOwn(message.properties, name) ? (message.properties[name] ?? null) : null;
  };
}
