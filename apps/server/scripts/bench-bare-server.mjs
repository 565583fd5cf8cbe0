// The baseline for npm run bench: a bare Fastify with one JSON route and nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/bare', async () => ({ data: 'AR' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
