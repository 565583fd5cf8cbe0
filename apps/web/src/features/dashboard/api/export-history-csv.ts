import { useMutation } from '@tanstack/react-query';
import type { HistoryPeriod } from '@tradebot/contract';
import { fetchFile, saveFile } from '../../../lib/download-file';

/** GET /api/v1/history-csv?period (text/csv), saved as a file. */
export async function exportHistoryCsv(period: HistoryPeriod): Promise<void> {
  const file = await fetchFile(
    `/api/v1/history-csv?period=${encodeURIComponent(period)}`,
    `tradebot-history-${period}.csv`,
  );
  saveFile(file);
}

export function useExportHistoryCsv() {
  return useMutation({ mutationFn: exportHistoryCsv });
}
