// Does forgot-password's answer time tell whether an account exists? (issue 11, finding 5)
// 40 pairs, each a registered e-mail and an unknown one in alternating order, each from its own
// address and for its own account (no rate limit reached), against the real app on PGlite in
// DATA_DIR. The unknown e-mail's time is the baseline.
// Run: npx tsx apps/server/scripts/bench-forgot-password.ts
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { registeredToken } from '../test/helpers/accounts';

const pairs = 40;
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-forgot-'));
const app = await buildApp(
  loadConfig({
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    ROBOT_ENABLED: 'false',
    SEED_DEMO: 'false',
    TRUST_PROXY: '1',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  }),
);
let address = 0;
const from = () => {
  address++;
  return { 'x-forwarded-for': `10.7.${String(address >> 8)}.${String(address & 255)}` };
};
for (let index = 0; index < pairs; index++) {
  // Made as users make accounts: the link mailed is followed (decision 085).
  await registeredToken(app, `known${String(index)}@example.com`, {}, from());
}

async function forgot(email: string): Promise<number> {
  const startedAt = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/core-api/public/api/v1/forgot-password',
    headers: from(),
    payload: { email },
  });
  const elapsed = performance.now() - startedAt;
  if (response.statusCode !== 200) throw new Error(response.body);
  // Let the work that follows the answer finish before the next request is timed.
  await app.services.passwordRecovery.settled();
  return elapsed;
}

const known: number[] = [];
const unknown: number[] = [];
for (let index = 0; index < pairs; index++) {
  const order = index % 2 === 0 ? ['known', 'unknown'] : ['unknown', 'known'];
  for (const which of order) {
    if (which === 'known') known.push(await forgot(`known${String(index)}@example.com`));
    else unknown.push(await forgot(`unknown${String(index)}@example.com`));
  }
}
await app.close();
await fs.rm(dataDir, { recursive: true, force: true });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return ((sorted[pairs / 2 - 1] ?? 0) + (sorted[pairs / 2] ?? 0)) / 2;
};
const slower = known.filter((time, index) => time > (unknown[index] ?? 0)).length;
console.log(
  `forgot-password, ${String(pairs)} pairs: registered median ${median(known).toFixed(2)} ms, ` +
    `unknown (baseline) median ${median(unknown).toFixed(2)} ms, ratio ` +
    `${(median(known) / median(unknown)).toFixed(2)}; registered slower in ${String(slower)} of ${String(pairs)} pairs`,
);
