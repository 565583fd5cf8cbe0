// The baseline for npm run bench and npm run bench:live: a bare Fastify with JSON routes and
// nothing else. With BENCH_BARE_PAYLOAD (a JSON file), GET /bare-payload answers that document:
// the same bytes as the route it is compared with, so the ratio measures our route's work and
// not the size of its answer.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/bare', async () => ({ data: 'AR' }));
app.get('/bare', async () => ({ data: 'AR' }));
const payloadFile = process.env.BENCH_BARE_PAYLOAD;
if (payloadFile) {
  const payload = JSON.parse(readFileSync(payloadFile, 'utf8'));
  app.get('/bare-payload', async () => payload);
}
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
