/**
 * cTrader's TCP framing: each ProtoMessage is preceded by its length as a 4-byte big-endian
 * unsigned integer.
 */

/** Larger frames are refused rather than buffered (the server's own limit is FRAME_TOO_LONG). */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4 + message.length);
  out.writeUInt32BE(message.length, 0);
  out.set(message, 4);
  return out;
}

export class FrameTooLongError extends Error {
  constructor(readonly length: number) {
    super(`cTrader frame of ${length} bytes exceeds ${MAX_FRAME_BYTES}`);
    this.name = 'FrameTooLongError';
  }
}

/** Splits a byte stream into frames, however the stream was cut into chunks. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: Buffer[] = [];
    while (this.buffered.length >= 4) {
      const length = this.buffered.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) throw new FrameTooLongError(length);
      if (this.buffered.length < 4 + length) break;
      frames.push(this.buffered.subarray(4, 4 + length));
      this.buffered = this.buffered.subarray(4 + length);
    }
    return frames;
  }
}
