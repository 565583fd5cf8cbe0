/**
 * A process that delivers the simulated provider's due webhooks under job claims, as a server
 * process does on its timer; the job-claims test kills it with SIGKILL mid-delivery.
 * Environment: DATABASE_URL, SCHEMA, WEBHOOK_URL, LEASE_MS.
 */
import { openDatabase } from '../../src/db/database';
import { SimulatedPaymentProvider } from '../../src/payments/simulated/simulated-provider';
import { systemClock } from '../../src/repositories/clock';
import { DrizzleJobClaims } from '../../src/repositories/job-claims.repository';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
};

const database = await openDatabase({
  databaseUrl: env('DATABASE_URL'),
  searchPath: env('SCHEMA'),
});
const provider = new SimulatedPaymentProvider({
  db: database.db,
  clock: systemClock,
  secret: 'claiming-worker',
  webhookUrl: () => env('WEBHOOK_URL'),
  autoDeliver: false,
  claims: new DrizzleJobClaims(
    database.db,
    `worker:${String(process.pid)}`,
    Number(env('LEASE_MS')),
  ),
  onError: (error) => {
    console.error(error);
  },
});
await provider.deliverDue();
await database.close();
