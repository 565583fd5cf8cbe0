/**
 * Port: the engine's only source of randomness. Seeded implementations make every run
 * reproducible (same seed, same ticks, same trades); nothing in the robot calls Math.random.
 */
export interface RandomSource {
  /** Uniform in [0, 1). */
  next(): number;
}

/**
 * xoshiro128** (Blackman and Vigna), seeded through splitmix32 so that neighbouring seeds give
 * unrelated streams. 32-bit integer arithmetic only, so results are identical on every platform.
 */
export function createSeededRandom(seed: number): RandomSource {
  let s = seed >>> 0;
  const splitmix32 = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix32();
  let b = splitmix32();
  let c = splitmix32();
  let d = splitmix32();
  if ((a | b | c | d) === 0) a = 1;
  return {
    next(): number {
      const result = Math.imul(rotateLeft(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
      const t = (b << 9) >>> 0;
      c ^= a;
      d ^= b;
      b ^= c;
      a ^= d;
      c ^= t;
      d = rotateLeft(d >>> 0, 11);
      a >>>= 0;
      b >>>= 0;
      c >>>= 0;
      return result / 4294967296;
    },
  };
}

function rotateLeft(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Derives an independent stream for a named purpose (one per instrument, say). */
export function deriveSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * Standard normal draws by Box-Muller; the second value of each pair is kept for the next call.
 */
export class GaussianSampler {
  private spare: number | undefined;

  constructor(private readonly random: RandomSource) {}

  next(): number {
    if (this.spare !== undefined) {
      const value = this.spare;
      this.spare = undefined;
      return value;
    }
    let u = 0;
    while (u === 0) u = this.random.next();
    const v = this.random.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spare = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }
}
