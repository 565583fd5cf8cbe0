import { useMutation } from '@tanstack/react-query';
import type { HistoryPeriod } from '@tradebot/contract';
import { fetchFile, saveFile } from '../../../lib/download-file';
import { currentLanguage } from '../../../lib/i18n';
import { browserTimeZone } from '../../../lib/time-zone';

/**
 * The address of GET /api/v1/history-csv for this reader: the page's language and the
 * browser's zone, so the spreadsheet reads as the screen does (decision 154).
 */
export function historyCsvPath(period: HistoryPeriod): string {
  const query = new URLSearchParams({ period, language: currentLanguage() });
  const zone = browserTimeZone();
  if (zone) query.set('time_zone', zone);
  return `/api/v1/history-csv?${query.toString()}`;
}

/** The history as a CSV file (text/csv), saved under the name the server gives. */
export async function exportHistoryCsv(period: HistoryPeriod): Promise<void> {
  saveFile(await fetchFile(historyCsvPath(period), `tradebot-${period}.csv`));
}

export function useExportHistoryCsv() {
  return useMutation({ mutationFn: exportHistoryCsv });
}
