import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookRejected } from '../payment-provider';

/**
 * The simulated provider signs its webhooks as Stripe does: HMAC-SHA256 over
 * `${timestamp}.${body}`, sent as `t=<unix seconds>,v1=<hex>`. A receiver refuses a wrong
 * signature, and a timestamp further than the tolerance from its clock (a replay of an old
 * capture).
 */
export const simulatedSignatureHeader = 'tradebot-signature';
export const signatureToleranceSeconds = 300;

function digest(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret)
    .update(`${String(timestamp)}.${body}`)
    .digest('hex');
}

export function signWebhook(secret: string, body: string, timestampSeconds: number): string {
  return `t=${String(timestampSeconds)},v1=${digest(secret, timestampSeconds, body)}`;
}

export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | string[] | undefined,
  nowMs: number,
  toleranceSeconds = signatureToleranceSeconds,
): void {
  if (typeof header !== 'string' || header.length > 1000) {
    throw new WebhookRejected('missing signature');
  }
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookRejected('malformed signature');
  }
  const expected = Buffer.from(digest(secret, timestamp, body), 'hex');
  const matches = signatures.some((signature) =>
    timingSafeEqual(Buffer.from(signature, 'hex'), expected),
  );
  if (!matches) throw new WebhookRejected('signature mismatch');
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) {
    throw new WebhookRejected('timestamp outside the tolerance');
  }
}
