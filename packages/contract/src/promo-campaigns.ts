/**
 * `/promo/robotbitcoin-{broker}` (spec §2). Only brokers of the directory get a landing, under
 * their directory id and with their directory name (docs/decisions/074): the address never
 * becomes text on the page.
 */
const robotBitcoinPrefix = 'robotbitcoin-';

/**
 * The broker the prerender writes into the landing's template; the server puts a directory
 * broker's segment and name in its place (apps/server/src/plugins/web-app.ts).
 */
export const promoBrokerPlaceholder = {
  segment: `${robotBitcoinPrefix}qzxbrokerqzx`,
  name: 'Qzxbrokerqzx',
} as const;

/** Whether the segment is a robotbitcoin landing at all (with or without a broker). */
export function isRobotBitcoinSegment(segment: string | undefined): boolean {
  return segment?.toLowerCase().startsWith(robotBitcoinPrefix) ?? false;
}

/**
 * The directory id a `robotbitcoin-{id}` segment asks for, lower-cased; `null` for the generic
 * landing (`robotbitcoin-`) or a segment that is not a robotbitcoin one.
 */
export function promoBrokerId(segment: string | undefined): string | null {
  if (!segment || !isRobotBitcoinSegment(segment)) return null;
  const id = segment.slice(robotBitcoinPrefix.length).toLowerCase();
  return id === '' ? null : id;
}

/** The landing's segment for a directory broker's id. */
export function promoBrokerSegment(id: string): string {
  return `${robotBitcoinPrefix}${id}`;
}
