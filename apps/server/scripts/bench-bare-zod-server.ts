// A second baseline for `npm run bench:live` (bundled by scripts/bench-live.mjs): bare Fastify
// answering the document in BENCH_BARE_PAYLOAD, validated and encoded with the contract's
// get-all-data schema by fastify-type-provider-zod, as our route's answer is. Nothing else.
import { readFileSync } from 'node:fs';
import { getAllDataResponseSchema } from '@tradebot/contract';
import Fastify from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';

const payloadFile = process.env.BENCH_BARE_PAYLOAD;
if (!payloadFile) throw new Error('BENCH_BARE_PAYLOAD is required');
const payload = getAllDataResponseSchema.parse(JSON.parse(readFileSync(payloadFile, 'utf8')));
const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
app.setSerializerCompiler(serializerCompiler);
app.get(
  '/bare-payload-validated',
  { schema: { response: { 200: getAllDataResponseSchema } } },
  () => payload,
);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
