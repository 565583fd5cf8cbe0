import { describe, expect, it } from 'vitest';
import { pushSubscriptionRequestSchema } from './notifications';
import { isPushServiceEndpoint } from './push-services';

const keys = { p256dh: 'BNc3', auth: 'tBHI' };

// Issue 37, point 3 (decision 115): the server POSTs to a subscription's endpoint, so only the
// browsers' push services are taken.
describe('a push subscription names a browser push service', () => {
  it.each([
    'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bHqjZxM0VImWWqDRN7U0a3AycjUf',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmYCh2P7y2r0Fq',
    'https://web.push.apple.com/QGmAU1HLZFZm3xG2wTk9_zMbCl-bhn0Rb2Mg',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAADlZ2s%2bWm5f%3d',
  ])('takes %s', (endpoint) => {
    expect(isPushServiceEndpoint(endpoint)).toBe(true);
    expect(pushSubscriptionRequestSchema.safeParse({ endpoint, keys }).success).toBe(true);
  });

  it.each([
    ['loopback', 'https://127.0.0.1/push'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['a private address', 'https://10.0.0.7/push'],
    ['IPv6 loopback', 'https://[::1]/push'],
    ['a port (Redis)', 'https://fcm.googleapis.com:6379/fcm/send/x'],
    ['a port (PostgreSQL)', 'https://web.push.apple.com:5432/x'],
    ['port 443 written out', 'https://fcm.googleapis.com:443/fcm/send/x'],
    ['credentials', 'https://user:pass@fcm.googleapis.com/fcm/send/x'],
    ['credentials hiding the host', 'https://fcm.googleapis.com:443@evil.example/x'],
    ['a backslash', 'https://fcm.googleapis.com\\@evil.example/x'],
    ['another host', 'https://evil.example/fcm/send/x'],
    ['a push host as a prefix', 'https://fcm.googleapis.com.evil.example/x'],
    ['a push domain without its dot', 'https://evilpush.apple.com/x'],
    ['a trailing dot', 'https://fcm.googleapis.com./fcm/send/x'],
    ['upper case', 'https://FCM.googleapis.com/fcm/send/x'],
    ['no path', 'https://fcm.googleapis.com'],
    ['plain http', 'http://fcm.googleapis.com/fcm/send/x'],
    ['a space', 'https://fcm.googleapis.com/fcm/send/x y'],
  ])('refuses %s', (_what, endpoint) => {
    expect(isPushServiceEndpoint(endpoint)).toBe(false);
    const parsed = pushSubscriptionRequestSchema.safeParse({ endpoint, keys });
    expect(parsed.success).toBe(false);
  });

  it('says why in its own message', () => {
    const parsed = pushSubscriptionRequestSchema.safeParse({
      endpoint: 'https://169.254.169.254/latest/meta-data/',
      keys,
    });
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(['validation.pushService']);
  });
});
