/**
 * Where web push may go (decision 115), zod-free: the server checks a subscription with it and
 * the web app a browser's, before it is sent.
 */

/**
 * The browsers' push services (decision 115), the only hosts a subscription may name: the
 * server POSTs to its endpoint, so any other host would have it connect where a user says.
 * FCM (Chrome, Opera, Samsung Internet), Mozilla (Firefox), Apple (Safari) and WNS (Edge).
 */
export const pushServiceHosts = ['fcm.googleapis.com'];
/** Every host under these domains is the service's (updates.push.services.mozilla.com, …). */
export const pushServiceDomains = [
  '.push.services.mozilla.com',
  '.push.apple.com',
  '.notify.windows.com',
];

/**
 * The endpoint as a browser gives it: `https://`, a lower-case host name, then the path (printable
 * ASCII, no backslash). No credentials, no port (443), no IP literal, and nothing that Node's
 * legacy `url.parse` (which `web-push` connects with) could read as another host than WHATWG's.
 */
const plainEndpoint = /^https:\/\/([a-z0-9.-]+)\/[\x21-\x5b\x5d-\x7e]*$/;

/** Whether `endpoint` is the address of a browser push service (see `pushServiceHosts`). */
export function isPushServiceEndpoint(endpoint: string): boolean {
  const host = plainEndpoint.exec(endpoint)?.[1];
  if (host === undefined) return false;
  return (
    pushServiceHosts.includes(host) ||
    pushServiceDomains.some((domain) => host.length > domain.length && host.endsWith(domain))
  );
}

/** At most this many browsers per user get pushed notices; an 11th replaces the oldest. */
export const maxPushSubscriptions = 10;
