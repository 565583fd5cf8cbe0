import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

/**
 * The cTrader Open API's messages, read from Spotware's own .proto files (proto/README.md) with
 * protobufjs. Every message names its payload type as the default of its `payloadType` field, so
 * the table from payload type to message is read from the definitions, not written by hand.
 */

const PROTO_FILES = [
  'OpenApiCommonModelMessages.proto',
  'OpenApiCommonMessages.proto',
  'OpenApiModelMessages.proto',
  'OpenApiMessages.proto',
] as const;

/** A message body as plain data: int64s as numbers, enums by name, bytes as Buffers. */
export type MessageBody = Record<string, unknown>;

export interface DecodedMessage {
  readonly payloadType: number;
  /** The message's name in the definitions, e.g. `ProtoOASpotEvent`. */
  readonly name: string;
  readonly body: MessageBody;
  readonly clientMsgId: string | undefined;
}

const TO_OBJECT: protobuf.IConversionOptions = {
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: false,
  arrays: true,
};

export class CTraderProtocol {
  private readonly envelope: protobuf.Type;
  private readonly byPayloadType = new Map<number, protobuf.Type>();
  private readonly payloadTypeByName = new Map<string, number>();

  private constructor(private readonly root: protobuf.Root) {
    this.envelope = root.lookupType('ProtoMessage');
    for (const type of root.nestedArray) {
      if (!(type instanceof protobuf.Type)) continue;
      const field = type.fields.payloadType;
      if (field?.resolvedType instanceof protobuf.Enum && typeof field.defaultValue === 'number') {
        this.byPayloadType.set(field.defaultValue, type);
        this.payloadTypeByName.set(type.name, field.defaultValue);
      }
    }
  }

  /** Loads the vendored definitions (or those in `directory`, for a bundle that copies them). */
  static load(directory?: string): CTraderProtocol {
    const dir = directory ?? fileURLToPath(new URL('./proto/', import.meta.url));
    const root = new protobuf.Root();
    root.loadSync(
      PROTO_FILES.map((file) => `${dir.endsWith('/') ? dir : `${dir}/`}${file}`),
      { keepCase: true },
    );
    root.resolveAll();
    return new CTraderProtocol(root);
  }

  payloadType(name: string): number {
    const payloadType = this.payloadTypeByName.get(name);
    if (payloadType === undefined) throw new Error(`cTrader: no message named ${name}`);
    return payloadType;
  }

  messageName(payloadType: number): string | undefined {
    return this.byPayloadType.get(payloadType)?.name;
  }

  /** Encodes `body` as the message `name`, wrapped in a ProtoMessage (without the frame). */
  encode(name: string, body: MessageBody, clientMsgId?: string): Uint8Array {
    const type = this.root.lookupType(name);
    const message = type.fromObject(body);
    const missing = type.fieldsArray.find((field) => field.required && body[field.name] == null);
    // fromObject drops what it cannot convert (an unknown enum name, say): refuse instead.
    const dropped = Object.keys(body).find(
      (key) =>
        body[key] != null &&
        !(Object.hasOwn(message, key) && (message as unknown as MessageBody)[key] != null),
    );
    const problem = missing
      ? `${missing.name} is required`
      : dropped
        ? `${dropped} has no valid value`
        : type.verify(message);
    if (problem !== null) throw new Error(`cTrader: invalid ${name}: ${problem}`);
    const payload = type.encode(message).finish();
    const envelope: MessageBody = { payloadType: this.payloadType(name), payload };
    if (clientMsgId !== undefined) envelope.clientMsgId = clientMsgId;
    return this.envelope.encode(this.envelope.fromObject(envelope)).finish();
  }

  /** Decodes one ProtoMessage (a frame's content). Unknown payload types keep an empty body. */
  decode(bytes: Uint8Array): DecodedMessage {
    const envelope = this.envelope.toObject(this.envelope.decode(bytes), TO_OBJECT) as {
      payloadType: number;
      payload?: Uint8Array;
      clientMsgId?: string;
    };
    const type = this.byPayloadType.get(envelope.payloadType);
    const body =
      type === undefined
        ? {}
        : type.toObject(type.decode(envelope.payload ?? new Uint8Array()), TO_OBJECT);
    return {
      payloadType: envelope.payloadType,
      name: type?.name ?? `payload ${envelope.payloadType}`,
      body,
      clientMsgId: envelope.clientMsgId,
    };
  }
}
