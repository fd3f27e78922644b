// rhea decodes application properties and annotations into plain JS values, which loses the AMQP type
// (an int, a long and a uint 5 all become 5). Browse must show real types, so we keep the encoded bytes
// next to every decoded message and read the typed sections from them when asked. rhea offers no hook for
// this; wrapping its decoder (once, idempotently) is the smallest change that keeps the rest of rhea as is.
import rhea, { type Message } from 'rhea';

const RAW_BYTES = Symbol.for('flotilla.native.raw-bytes');

interface WrappedDecode {
  (buffer: Buffer): Message;
  readonly keepsRawBytes?: true;
}

function installRawBytes(): void {
  const codec = rhea.message as unknown as { decode: WrappedDecode };
  if (codec.decode.keepsRawBytes) return;
  const decode = codec.decode.bind(codec);
  const wrapped = (buffer: Buffer): Message => {
    const message = decode(buffer);
    Object.defineProperty(message, RAW_BYTES, { value: buffer, enumerable: false });
    return message;
  };
  codec.decode = Object.assign(wrapped, { keepsRawBytes: true as const });
}

installRawBytes();

/** The encoded bytes a received message was decoded from, when rhea decoded it after this module loaded. */
export function rawBytesOf(message: Message): Buffer | undefined {
  const raw = (message as unknown as Record<symbol, unknown>)[RAW_BYTES];
  return Buffer.isBuffer(raw) ? raw : undefined;
}
