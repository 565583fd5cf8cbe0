import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactCredentials, serializeError } from '../src/http/log';
import { useTestApp } from './helpers/app';

/** Issue 18, finding 10: a query string that carries a credential never reaches a log line. */
describe('credentials in URLs are kept out of the log', () => {
  const lines: string[] = [];
  const context = useTestApp({ LOG_LEVEL: 'info' }, () => ({
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  }));
  const cardLink = `eyJzdWIiOiJjdXNfc2ltXzEyMyIsImV4cCI6MTc2NDAwMDAwMH0.${'s'.repeat(43)}`;

  it('a signed card-page link is logged without its token, the rest of the URL kept', async () => {
    lines.length = 0;
    const page = await context.app.inject({ url: `/sim-pay/card?session=${cardLink}&lang=pt` });
    expect(page.statusCode).toBe(404);
    const logged = lines.join('');
    expect(logged).toContain('/sim-pay/card?session=[redacted]&lang=pt');
    expect(logged).not.toContain('eyJzdWIi');
  });

  it('every line: an unknown route, an error, tokens, codes, keys and signatures', async () => {
    lines.length = 0;
    const secret = 'VerySecretValue123';
    await context.app.inject({
      url: `/no-such-page?token=${secret}&reset_code=${secret}&api_key=${secret}&signature=${secret}`,
    });
    context.app.log.error(
      { err: new Error(`fetching /sim-pay/card?session=${secret} failed`) },
      'a failure',
    );
    const logged = lines.join('');
    expect(logged).toContain('/no-such-page?token=[redacted]');
    expect(logged).toContain('card?session=[redacted]');
    expect(logged).not.toContain(secret);
  });

  it('a registration confirmation link (decision 085) is logged without its token', async () => {
    lines.length = 0;
    const token = 'Q'.repeat(43);
    await context.app.inject({ url: `/pt/register?confirmation_token=${token}` });
    const logged = lines.join('');
    expect(logged).toContain('/pt/register?confirmation_token=[redacted]');
    expect(logged).not.toContain(token);
  });

  it("a sign-in alert's link (decision 130) is logged without its token", async () => {
    lines.length = 0;
    const token = 'S'.repeat(43);
    await context.app.inject({ url: `/pt/login?sign_in_token=${token}` });
    const logged = lines.join('');
    expect(logged).toContain('/pt/login?sign_in_token=[redacted]');
    expect(logged).not.toContain(token);
  });

  it('the redaction keeps parameters that carry none', () => {
    expect(redactCredentials('/payment?checkout=canceled&plan=yearly')).toBe(
      '/payment?checkout=canceled&plan=yearly',
    );
    expect(redactCredentials('/x?a=1&Session=abc#top')).toBe('/x?a=1&Session=[redacted]#top');
    const error = new Error('GET /sim-pay/card?session=abc.def failed');
    const serialized = serializeError(error);
    expect(serialized.message).toBe('GET /sim-pay/card?session=[redacted] failed');
    expect(serialized.stack).not.toContain('abc.def');
  });
});
