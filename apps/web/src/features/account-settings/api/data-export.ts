import { useMutation } from '@tanstack/react-query';
import { accountPaths } from '@tradebot/contract';
import { fetchFile, saveFile } from '../../../lib/download-file';

/** GET /api/v1/account/data-export: every piece of data we hold, saved as a JSON file. */
export async function downloadMyData(): Promise<string> {
  const file = await fetchFile(`/api/v1${accountPaths.dataExport}`, 'tradebot-data.json');
  saveFile(file);
  return file.fileName;
}

export function useDownloadMyData() {
  return useMutation({ mutationFn: downloadMyData });
}
