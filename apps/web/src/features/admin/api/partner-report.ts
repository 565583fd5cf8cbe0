import {
  supportApiPaths as paths,
  type PartnerReport,
  type PartnerReportQuery,
} from '@tradebot/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { adminDownload, adminRequest } from './admin-request';

const search = (query: PartnerReportQuery) =>
  new URLSearchParams({ from: query.from, to: query.to, dimension: query.dimension }).toString();

export function usePartnerReport(query: PartnerReportQuery | null) {
  return useQuery({
    queryKey: ['admin', 'partner-report', query],
    queryFn: async () =>
      (
        await adminRequest<{ data: PartnerReport }>(
          `${paths.adminPartnerReport}?${search(query ?? { from: '', to: '', dimension: 'partner_id' })}`,
        )
      ).data,
    enabled: query !== null,
  });
}

/** The same report as a CSV file (an audited export). */
export function useExportPartnerReport() {
  return useMutation({
    mutationFn: (query: PartnerReportQuery) =>
      adminDownload(
        `${paths.adminPartnerReportCsv}?${search(query)}`,
        `partners-${query.dimension}-${query.from}-${query.to}.csv`,
      ),
  });
}
