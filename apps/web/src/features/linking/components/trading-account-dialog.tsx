import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FactList } from '../../../components/ui/fact-list';
import { formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useAppStore } from '../../../stores/app';
import styles from './linking.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

export interface OpenedAccount {
  email: string;
  /** USD. */
  startingBalance: number;
}

/**
 * spec §3 App state "trading-account modal open": the account the platform just opened, and
 * the next step, the dashboard (where the robot is switched on). Closing it in any way
 * continues to that step.
 */
export function TradingAccountDialog({
  account,
  onContinue,
}: {
  account: OpenedAccount | null;
  onContinue: () => void;
}) {
  const { t, language } = useTranslation('linking');
  const numberLocale = useNumberLocale(language);
  const open = useAppStore((state) => state.tradingAccountModalOpen);
  const setOpen = useAppStore((state) => state.setTradingAccountModalOpen);
  const close = () => {
    setOpen(false);
    onContinue();
  };
  if (!account) return null;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
      }}
      title={t('opened.title')}
      description={t('opened.description')}
      closeLabel={t('opened.close')}
    >
      <div className={styles.dialogBody}>
        <FactList
          facts={[
            { term: t('platform.name'), value: t('platform.title') },
            { term: t('fields.platformEmail'), value: account.email },
            {
              term: t('opened.balance'),
              value: formatMoney(numberLocale, account.startingBalance),
              emphasis: true,
            },
          ]}
        />
        <p className={styles.note}>{t('platform.simulated')}</p>
        <Button label={t('opened.continue')} onClick={close} block />
      </div>
    </Dialog>
  );
}
