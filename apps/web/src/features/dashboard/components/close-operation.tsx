import type { TradeRow } from '@tradebot/contract';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatSignedMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useNumberLocale } from '../../../lib/number-locale';
import { ApiRequestError } from '../../../lib/api-client';
import { Notice } from '../../../components/ui/notice';
import type { useCloseOperation } from '../api/close-operation';

/**
 * "Cerrar" on one open operation (issue 39; decision 152): asks first, then closes it at the
 * market. The robot stays as it was. The outcome is told by the list (`CloseOutcome`).
 */
export function CloseOperation({
  row,
  closing,
}: {
  row: TradeRow;
  closing: ReturnType<typeof useCloseOperation>;
}) {
  const { t, language } = useTranslation('dashboard');
  const numberLocale = useNumberLocale(language);
  const pending = closing.isPending && closing.variables === row.id;
  return (
    <ConfirmDialog
      tone="danger"
      trigger={
        <Button
          size="sm"
          color="other"
          loading={pending}
          disabled={closing.isPending}
          aria-label={t('closeOne.buttonFor', { asset: row.OutputName })}
        >
          {t('closeOne.button')}
        </Button>
      }
      title={t('closeOne.confirmTitle', { asset: row.OutputName })}
      description={t('closeOne.confirmText', {
        profit: formatSignedMoney(numberLocale, row.Profit, row.currency),
      })}
      confirmLabel={t('closeOne.confirm')}
      cancelLabel={t('closeOne.cancel')}
      onConfirm={() => {
        closing.mutate(row.id);
      }}
    />
  );
}

/**
 * What closing one operation came to: the row it closed, with its result, or the server's
 * reason in the user's language (already closed, the robot not answering...). It takes the
 * focus: the button that was pressed has gone with its row.
 */
export function CloseOutcome({ closing }: { closing: ReturnType<typeof useCloseOperation> }) {
  const { t, language } = useTranslation('dashboard');
  const numberLocale = useNumberLocale(language);
  const box = useRef<HTMLDivElement>(null);
  const shown = closing.isSuccess || closing.isError;
  useEffect(() => {
    if (shown) box.current?.focus();
  }, [shown, closing.submittedAt]);
  if (!shown) return null;
  // The server's own words (already closed, not found, the robot not answering), else ours.
  const serverSaid =
    closing.error instanceof ApiRequestError && closing.error.code !== 'HTTP_ERROR';
  const alreadyClosed = closing.error instanceof ApiRequestError && closing.error.status === 409;
  return (
    <div ref={box} tabIndex={-1} data-testid="close-outcome">
      {closing.isSuccess ? (
        <Notice
          tone="success"
          title={t('closeOne.done', {
            asset: closing.data.operation.OutputName,
            profit: formatSignedMoney(
              numberLocale,
              closing.data.operation.Profit,
              closing.data.operation.currency,
            ),
          })}
        >
          <p>{t('closeOne.doneText')}</p>
        </Notice>
      ) : (
        <Notice
          tone={alreadyClosed ? 'info' : 'error'}
          title={serverSaid ? closing.error.message : t('closeOne.failed')}
        />
      )}
    </div>
  );
}
