/** Port: the engine's only notion of "now" (epoch ms). The robot never reads the wall clock. */
export interface Clock {
  now(): number;
}

/** Simulated time for tests and simulations: it moves only when told to. */
export class ManualClock implements Clock {
  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  set(time: number): void {
    if (time < this.time) throw new Error('Simulated time never goes back');
    this.time = time;
  }

  advance(ms: number): void {
    this.set(this.time + ms);
  }
}
