import { BrokerBacktestCard } from '../../../components/broker-backtest/broker-backtest-card';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { useTranslation } from '../../../lib/i18n';
import { useAuthStore } from '../../../stores/auth';
import { useAccountDetails } from '../api/account-details';
import { DataExportCard } from '../components/data-export-card';
import { DeleteAccountCard } from '../components/delete-account-card';
import { DetailsCard } from '../components/details-card';
import { EmailCard } from '../components/email-card';
import { serverMessage } from '../components/failure-text';
import { PasswordCard } from '../components/password-card';
import { SessionsCard } from '../components/sessions-card';
import { UnlinkAccountCard } from '../components/unlink-account-card';

/**
 * /account-settings (issue 23; decision 080): details and phone, password, sessions, and
 * unlinking the trading account (decision 091), deleting the account. Open to every signed-in user, paid and linked or not: deleting an
 * account must never wait on a payment. A new e-mail address is verified (decision 089).
 */
export default function AccountSettingsRoute() {
  const { t } = useTranslation('account-settings');
  const details = useAccountDetails();
  const linked = useAuthStore((state) => state.userConfig?.linked ?? false);
  return (
    <Page title={t('title')} intro={t('intro')} width="narrow">
      {details.isPending && <Skeleton height="12rem" />}
      {details.isError && (
        <Notice
          tone="error"
          action={
            <Button color="secondary" size="sm" onClick={() => void details.refetch()}>
              {t('retry')}
            </Button>
          }
        >
          {serverMessage(details.error) ?? t('details.loadFailed')}
        </Notice>
      )}
      {details.data && <DetailsCard details={details.data} />}
      {details.data && <EmailCard currentEmail={details.data.email} />}
      <PasswordCard />
      <SessionsCard />
      <DataExportCard />
      <BrokerBacktestCard enabled={linked} />
      <UnlinkAccountCard />
      <DeleteAccountCard />
    </Page>
  );
}
