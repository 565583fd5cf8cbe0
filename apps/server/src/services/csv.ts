import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | null;

/** How a CSV is written; the defaults are RFC 4180's, as machines read it. */
export interface CsvOptions {
  /** Indexes of the columns written with two decimals. */
  moneyColumns?: readonly number[];
  /** `;` for a spreadsheet in a language that writes decimals with a comma (es, pt). */
  delimiter?: ',' | ';';
  /** Numbers with a decimal comma (1,5): what an es or pt spreadsheet reads as a number. */
  decimalComma?: boolean;
  /** A UTF-8 byte order mark first, by which Excel knows the file is UTF-8 (accents). */
  bom?: boolean;
}

/**
 * CSV as spreadsheets read it (RFC 4180, written by csv-stringify: CRLF line ends, fields
 * quoted only when they hold the delimiter, a quote or a line break, quotes doubled), a header
 * row first, an empty field for null. Text a spreadsheet would run as a formula (=, +, -, @, tab,
 * CR first) gets a leading quote (OWASP "CSV injection"). Numbers stay numbers, so a negative
 * amount is not taken for a formula; the `moneyColumns` are written with two decimals.
 */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  { moneyColumns = [], delimiter = ',', decimalComma = false, bom = false }: CsvOptions = {},
): string {
  const decimal = decimalComma ? (text: string) => text.replace('.', ',') : (text: string) => text;
  return stringify([[...header], ...rows.map((row) => [...row])], {
    record_delimiter: 'windows',
    delimiter,
    bom,
    escape_formulas: true,
    cast: {
      number: (value, context) =>
        decimal(
          typeof context.column === 'number' && moneyColumns.includes(context.column)
            ? value.toFixed(2)
            : String(value),
        ),
    },
  });
}
