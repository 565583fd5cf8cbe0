// The second baseline of logins in npm run bench: a bare Fastify route on the login's path
// whose only work is one argon2id verification with the server's own hasher (its parameters
// and its one-hash-per-core queue). Driven by the same load generator as the real route, it
// is what this machine does for a login whose only cost is the hash.
import Fastify from 'fastify';
import { argon2PasswordHasher } from '../src/repositories/password-hasher';

const password = process.env.BENCH_PASSWORD ?? 'bench-password-1';
const stored = await argon2PasswordHasher.hash(password);

const app = Fastify({ logger: false });
app.post<{ Body: { password?: unknown } }>('/core-api/public/api/v1/login', async (request) => {
  const given = typeof request.body.password === 'string' ? request.body.password : '';
  if (!(await argon2PasswordHasher.verify(stored, given))) throw new Error('wrong password');
  return { data: { token: 'bench' } };
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
