/** Optional form text: absent, null or blank all mean "none"; anything else is trimmed. */
export function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? null : trimmed;
}
