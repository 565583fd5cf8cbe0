/**
 * The browser's IANA time zone (America/Sao_Paulo), or undefined where the runtime does not say:
 * where the daily summary's evening is (decision 088) and the zone of the history CSV's times
 * (decision 154).
 */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
