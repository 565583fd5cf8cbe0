import {
  partnerReportDimensions,
  partnerReportQuerySchema,
  type PartnerReportQuery,
} from '@tradebot/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormSelectField, FormTextField } from '../../../components/form/form-fields';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { Table } from '../../../components/ui/table';
import { contractResolver } from '../../../lib/contract-form';
import { useTranslation } from '../../../lib/i18n';
import { useExportPartnerReport, usePartnerReport } from '../api/partner-report';
import { formatCurrencyCents } from '../format-currency';
import { QueryState } from '../components/query-state';
import styles from '../admin.module.css';

const isoDay = (date: Date) =>
  `${String(date.getFullYear())}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The current month so far: the period a partner manager asks about first. */
function thisMonth(): PartnerReportQuery {
  const now = new Date();
  return {
    from: isoDay(new Date(now.getFullYear(), now.getMonth(), 1)),
    to: isoDay(now),
    dimension: 'partner_id',
  };
}

/**
 * Registrations, payments and revenue net of refunds by partner, source, promo code or referral
 * pair, over a period; CSV export.
 */
export default function PartnersRoute() {
  const { t, language } = useTranslation('admin');
  const [query, setQuery] = useState<PartnerReportQuery>(thisMonth);
  const { control, handleSubmit } = useForm<PartnerReportQuery>({
    resolver: contractResolver(partnerReportQuerySchema),
    defaultValues: query,
  });
  const report = usePartnerReport(query);
  const exportCsv = useExportPartnerReport();

  // The period asked about is the report's query; nothing is sent from here.
  const onSubmit = handleSubmit((checked) => {
    setQuery(checked);
  });

  return (
    <Page title={t('partners.title')} intro={t('partners.intro')} width="wide">
      <Card title={t('partners.periodTitle')} titleId="partners-period">
        <form noValidate className={styles.formRow} onSubmit={(event) => void onSubmit(event)}>
          <FormTextField control={control} name="from" type="date" label={t('partners.from')} />
          <FormTextField control={control} name="to" type="date" label={t('partners.to')} />
          <FormSelectField
            control={control}
            name="dimension"
            label={t('partners.dimension')}
            options={partnerReportDimensions.map((dimension) => ({
              value: dimension,
              label: t(`partners.dimensions.${dimension}`),
            }))}
          />
          <Button type="submit" label={t('partners.show')} loading={report.isFetching} />
        </form>
      </Card>
      <Card
        title={t('partners.resultTitle')}
        titleId="partners-result"
        actions={
          <Button
            size="sm"
            color="secondary"
            label={t('partners.export')}
            loading={exportCsv.isPending}
            onClick={() => {
              exportCsv.mutate(query);
            }}
          />
        }
      >
        {exportCsv.isError && <Notice tone="error" title={exportCsv.error.message} />}
        <QueryState query={report}>
          {(data) => (
            <>
              <p className={styles.muted}>
                {t('partners.summary', {
                  count: data.registrations,
                  from: data.from,
                  to: data.to,
                  zone: data.timeZone,
                })}
              </p>
              <p className={styles.muted}>
                {data.currencies.length === 0
                  ? t('partners.noMoney')
                  : t('partners.moneySummary', {
                      payments: data.payments,
                      refunds: data.refunds,
                      net: data.revenue
                        .map((item) => formatCurrencyCents(language, item.netCents, item.currency))
                        .join(' + '),
                    })}
              </p>
              <p className={styles.muted}>{t('partners.moneyNote')}</p>
              {data.dimension === 'referral' && (
                <p className={styles.muted}>{t('partners.referralNote')}</p>
              )}
              {data.rows.length === 0 ? (
                <p className={styles.muted}>{t('partners.empty')}</p>
              ) : (
                <Table
                  caption={t('partners.resultTitle')}
                  captionHidden
                  columns={[
                    t(`partners.dimensions.${data.dimension}`),
                    t('partners.registrations'),
                    t('partners.payments'),
                    t('partners.refunds'),
                    ...data.currencies.flatMap((currency) => [
                      t('partners.gross', { currency }),
                      t('partners.refunded', { currency }),
                      t('partners.net', { currency }),
                    ]),
                  ]}
                >
                  {data.rows.map((row) => (
                    <tr key={row.key ?? ''}>
                      <td className={styles.code}>{row.key ?? t('partners.noValue')}</td>
                      <td>{row.registrations}</td>
                      <td>{row.payments}</td>
                      <td>{row.refunds}</td>
                      {row.revenue.flatMap((item) =>
                        (['grossCents', 'refundedCents', 'netCents'] as const).map((field) => (
                          <td key={`${item.currency}-${field}`} className={styles.nowrap}>
                            {formatCurrencyCents(language, item[field], item.currency)}
                          </td>
                        )),
                      )}
                    </tr>
                  ))}
                </Table>
              )}
            </>
          )}
        </QueryState>
      </Card>
    </Page>
  );
}
