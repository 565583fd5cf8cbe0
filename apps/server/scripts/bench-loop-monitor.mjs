// Preloaded into the server by `npm run bench:live` (node --import): the event loop's health,
// measured as the lag of a 10 ms timer. SIGUSR2 writes the lag since the last SIGUSR2 to
// BENCH_LOOP_FILE as JSON and starts a new measurement.
import { writeFileSync } from 'node:fs';
import { createHistogram } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const periodMs = 10;
  let lag = createHistogram();
  let expected = performance.now() + periodMs;
  setInterval(() => {
    const now = performance.now();
    // In microseconds: the histogram records integers of at least 1.
    lag.record(Math.max(1, Math.round((now - expected) * 1000)));
    expected = now + periodMs;
  }, periodMs).unref();
  process.on('SIGUSR2', () => {
    const ms = (us) => Math.round(us / 10) / 100;
    writeFileSync(
      file,
      JSON.stringify({
        samples: lag.count,
        p50: ms(lag.percentile(50)),
        p99: ms(lag.percentile(99)),
        max: ms(lag.max),
      }),
    );
    lag = createHistogram();
  });
}
