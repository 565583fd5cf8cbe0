/** A numeric command-line option, refused with its name when it is not a number at least `min`. */
export function numberOption(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < min)
    throw new Error(`--${name} must be a number >= ${min}`);
  return value;
}
