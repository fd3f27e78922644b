// AMQP values with their wire type, as JSON. Browse returns them so a user sees an `int` 5 apart from a
// `long` 5; send accepts them so a user can produce exactly the type a consumer's selector expects.
// Longs beyond 2^53 travel as decimal strings; binary as base64; timestamps as epoch milliseconds.
import rhea, { type Typed } from 'rhea';

type AmqpTypeName =
  | 'null'
  | 'boolean'
  | 'ubyte'
  | 'ushort'
  | 'uint'
  | 'ulong'
  | 'byte'
  | 'short'
  | 'int'
  | 'long'
  | 'float'
  | 'double'
  | 'decimal32'
  | 'decimal64'
  | 'decimal128'
  | 'char'
  | 'timestamp'
  | 'uuid'
  | 'binary'
  | 'string'
  | 'symbol'
  | 'list'
  | 'map'
  | 'array';

export type TypedValue =
  | { readonly type: 'null'; readonly value: null }
  | { readonly type: 'boolean'; readonly value: boolean }
  | {
      readonly type: 'ubyte' | 'ushort' | 'uint' | 'byte' | 'short' | 'int' | 'float' | 'double' | 'timestamp';
      readonly value: number;
    }
  | { readonly type: 'ulong' | 'long'; readonly value: number | string }
  | { readonly type: 'decimal32' | 'decimal64' | 'decimal128' | 'binary'; readonly value: string }
  | { readonly type: 'char' | 'uuid' | 'string' | 'symbol'; readonly value: string }
  | { readonly type: 'list' | 'array'; readonly value: readonly TypedValue[] }
  | { readonly type: 'map'; readonly value: Readonly<Record<string, TypedValue>> };

const TYPE_BY_RHEA_NAME: Record<string, AmqpTypeName> = {
  Null: 'null',
  Boolean: 'boolean',
  True: 'boolean',
  False: 'boolean',
  Ubyte: 'ubyte',
  Ushort: 'ushort',
  Uint: 'uint',
  SmallUint: 'uint',
  Uint0: 'uint',
  Ulong: 'ulong',
  SmallUlong: 'ulong',
  Ulong0: 'ulong',
  Byte: 'byte',
  Short: 'short',
  Int: 'int',
  SmallInt: 'int',
  Long: 'long',
  SmallLong: 'long',
  Float: 'float',
  Double: 'double',
  Decimal32: 'decimal32',
  Decimal64: 'decimal64',
  Decimal128: 'decimal128',
  CharUTF32: 'char',
  Timestamp: 'timestamp',
  Uuid: 'uuid',
  Vbin8: 'binary',
  Vbin32: 'binary',
  Str8: 'string',
  Str32: 'string',
  Sym8: 'symbol',
  Sym32: 'symbol',
  List0: 'list',
  List8: 'list',
  List32: 'list',
  Map8: 'map',
  Map32: 'map',
  Array8: 'array',
  Array32: 'array',
};

/** 64-bit integers arrive as numbers or as 8 raw bytes; beyond 2^53 they stay exact as decimal strings. */
function sixtyFourBit(value: unknown, isSigned: boolean): number | string {
  if (typeof value === 'number') return value;
  if (!Buffer.isBuffer(value)) return String(value);
  const exact = isSigned ? value.readBigInt64BE(0) : value.readBigUInt64BE(0);
  const asNumber = Number(exact);
  return Number.isSafeInteger(asNumber) ? asNumber : exact.toString();
}

function toBuffer(value: unknown): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
}

/** The typed JSON form of a value read by rhea's Reader. */
export function fromRheaTyped(typed: Typed): TypedValue {
  const type = TYPE_BY_RHEA_NAME[typed.type.name];
  const raw: unknown = typed.value;
  switch (type) {
    case 'null':
      return { type, value: null };
    case 'boolean':
      return { type, value: typed.type.name === 'True' || (typed.type.name !== 'False' && Boolean(raw)) };
    case 'ulong':
    case 'long':
      return { type, value: sixtyFourBit(raw, type === 'long') };
    case 'timestamp':
      return { type, value: raw instanceof Date ? raw.getTime() : Number(raw) };
    case 'char':
      return { type, value: String.fromCodePoint(Number(raw)) };
    case 'uuid':
      return { type, value: rhea.uuid_to_string(toBuffer(raw)) };
    case 'binary':
    case 'decimal32':
    case 'decimal64':
    case 'decimal128':
      return { type, value: toBuffer(raw).toString('base64') };
    case 'string':
    case 'symbol':
      return { type, value: String(raw) };
    case 'list':
    case 'array':
      return { type, value: (raw as Typed[]).map(fromRheaTyped) };
    case 'map': {
      const elements = raw as Typed[];
      const entries: Record<string, TypedValue> = {};
      for (let index = 0; index + 1 < elements.length; index += 2) {
        entries[String((elements[index] as Typed).value)] = fromRheaTyped(elements[index + 1] as Typed);
      }
      return { type, value: entries };
    }
    case undefined:
      throw new Error(`Unsupported AMQP type ${typed.type.name}`);
    default:
      return { type, value: Number(raw) };
  }
}

function sixtyFourBitBuffer(value: number | string, isSigned: boolean): number | Buffer {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  const buffer = Buffer.alloc(8);
  if (isSigned) buffer.writeBigInt64BE(BigInt(value));
  else buffer.writeBigUInt64BE(BigInt(value));
  return buffer;
}

/** The rhea value that encodes as exactly this type. */
export function toRheaTyped(value: TypedValue): Typed {
  const t = rhea.types;
  switch (value.type) {
    case 'null':
      return t.wrap(null);
    case 'boolean':
      return t.wrap_boolean(value.value);
    case 'ubyte':
      return t.wrap_ubyte(value.value);
    case 'ushort':
      return t.wrap_ushort(value.value);
    case 'uint':
      return t.wrap_uint(value.value);
    case 'ulong':
      return t.wrap_ulong(sixtyFourBitBuffer(value.value, false)) as Typed;
    case 'byte':
      return t.wrap_byte(value.value);
    case 'short':
      return t.wrap_short(value.value);
    case 'int':
      return t.wrap_int(value.value);
    case 'long':
      return t.wrap_long(sixtyFourBitBuffer(value.value, true));
    case 'float':
      return t.wrap_float(value.value);
    case 'double':
      return t.wrap_double(value.value);
    case 'timestamp':
      return t.wrap_timestamp(value.value);
    case 'char':
      return t.wrap_char(value.value.codePointAt(0) ?? 0);
    case 'uuid':
      return t.wrap_uuid(rhea.string_to_uuid(value.value));
    case 'binary':
      return t.wrap_binary(Buffer.from(value.value, 'base64'));
    case 'string':
      return t.wrap_string(value.value);
    case 'symbol':
      return t.wrap_symbol(value.value);
    case 'list':
      return t.wrap_list(value.value.map(toRheaTyped));
    case 'map':
      return t.wrap_map(Object.fromEntries(Object.entries(value.value).map(([key, item]) => [key, toRheaTyped(item)])));
    case 'array':
    case 'decimal32':
    case 'decimal64':
    case 'decimal128':
      throw new Error(`Sending AMQP ${value.type} values is not supported`);
  }
}
