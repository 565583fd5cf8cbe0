/**
 * `/promo/robotbitcoin-{broker}` (spec §2). The web app shows the name and the server puts it
 * into the prerendered page it serves for that address (docs/decisions/053), so both compute it
 * here.
 *
 * The broker's name from a `robotbitcoin-{broker}` path segment, safe to show: letters and
 * digits only (accents kept), words split on - _ . + and spaces, title-cased, 40 characters
 * at most. `null` when the segment is not a robotbitcoin one or names nothing.
 */
export function brokerNameFromSegment(segment: string | undefined): string | null {
  const prefix = 'robotbitcoin-';
  if (!segment?.toLowerCase().startsWith(prefix)) return null;
  let raw = segment.slice(prefix.length);
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // A malformed escape: keep the raw text, the filter below cleans it.
  }
  const words = raw
    .split(/[\s\-_.+]+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean)
    .map((word) => word.charAt(0).toLocaleUpperCase('es') + word.slice(1).toLocaleLowerCase('es'));
  const name = words.join(' ').slice(0, 40).trim();
  return name === '' ? null : name;
}

/** Whether the segment is a robotbitcoin landing at all (with or without a broker). */
export function isRobotBitcoinSegment(segment: string | undefined): boolean {
  return segment?.toLowerCase().startsWith('robotbitcoin-') ?? false;
}
