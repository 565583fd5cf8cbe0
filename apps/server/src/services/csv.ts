import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | null;

/**
 * CSV as spreadsheets read it (RFC 4180, written by csv-stringify: CRLF line ends, fields
 * quoted only when they hold a comma, a quote or a line break, quotes doubled), a header row
 * first, an empty field for null. Text a spreadsheet would run as a formula (=, +, -, @, tab,
 * CR first) gets a leading quote (OWASP "CSV injection"). Numbers stay numbers, so a negative
 * amount is not taken for a formula; the `moneyColumns` (by index) are written with two decimals.
 */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  { moneyColumns = [] }: { moneyColumns?: readonly number[] } = {},
): string {
  return stringify([[...header], ...rows.map((row) => [...row])], {
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: {
      number: (value, context) =>
        typeof context.column === 'number' && moneyColumns.includes(context.column)
          ? value.toFixed(2)
          : String(value),
    },
  });
}
