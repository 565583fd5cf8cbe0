import { builtInPlatform, linkAccountRequestSchema } from '@tradebot/contract';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FactList } from '../../../components/ui/fact-list';
import { Notice } from '../../../components/ui/notice';
import { FormPasswordField } from '../../../components/form/form-fields';
import { TextField } from '../../../components/ui/form-field';
import { Page } from '../../../components/ui/page';
import { ApiRequestError } from '../../../lib/api-client';
import { useContractForm } from '../../../lib/contract-form';
import { formatDay, formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { freeMonthUntil } from '../../../lib/onboarding';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { useAuthStore } from '../../../stores/auth';
import { linkAccount, platformEmailTaken } from '../api/link-account';
import { CTraderCard } from '../components/ctrader-card';
import { TradingAccountDialog, type OpenedAccount } from '../components/trading-account-dialog';
import styles from '../components/linking.module.css';
import { followStep } from '../follow-step';
import { useNumberLocale } from '../../../lib/number-locale';

const startingBalance = builtInPlatform.startingBalanceCents / 100;

/**
 * spec §2 LinkAccount (login, payment, not linked yet): registers the user at the trading
 * platform, whose demo account starts with a balance shown before and after. The password
 * chosen here also logs in there (issue 23: one password for one step), so after the
 * trading-account dialog says what was opened, the dashboard's last step switches the robot on.
 */
export default function LinkAccountRoute() {
  const { t, language } = useTranslation('linking');
  const numberLocale = useNumberLocale(language);
  const navigate = useNavigate();
  const email = useAuthStore((state) => state.userConfig?.user.email ?? '');
  const showMessage = useAppStore((state) => state.showMessage);
  const openDialog = useAppStore((state) => state.setTradingAccountModalOpen);
  const [opened, setOpened] = useState<OpenedAccount | null>(null);
  // Right after a free-month code made the account: until when, said in the page (decision 156).
  const freeMonthEnd = freeMonthUntil(useLocation().state);
  const { control, sending, submitWith } = useContractForm({
    schema: linkAccountRequestSchema,
    defaultValues: { password: '', confirm_password: '' },
    failureKey: 'forms:errors.tradingRegister',
  });
  const toPlatformLogin = () => void navigate(routePath('TradearLogin'));
  const toDashboard = () => void navigate(routePath('Dashboard'));

  const onSubmit = submitWith(async (data) => {
    try {
      const account = await linkAccount(data);
      setOpened({ email: account.email, startingBalance: account.startingBalance });
      openDialog(true);
      await followStep({ linked: true, login_tradear: true });
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.code !== platformEmailTaken) throw error;
      // spec §8: the e-mail already has a platform account: log in there instead.
      showMessage({ text: error.message });
      toPlatformLogin();
    }
  });

  return (
    <Page title={t('link.title')} intro={t('link.intro')} width="wide">
      {freeMonthEnd && (
        <Notice tone="success">
          {t('link.freeMonth', { date: formatDay(language, freeMonthEnd) })}
        </Notice>
      )}
      <p>{t('link.choose')}</p>
      <h2>{t('platform.choice')}</h2>
      <div className={styles.columns}>
        <Card title={t('platform.title')} titleId="platform-title">
          <p>{t('platform.description')}</p>
          <FactList
            facts={[
              {
                term: t('platform.startingBalance'),
                value: formatMoney(numberLocale, startingBalance),
                emphasis: true,
              },
              { term: t('platform.markets'), value: t('platform.marketsValue') },
            ]}
          />
          <p className={styles.note}>{t('platform.simulated')}</p>
        </Card>
        <Card title={t('link.formTitle')} titleId="link-form-title">
          <form
            noValidate
            className={styles.form}
            aria-labelledby="link-form-title"
            onSubmit={(event) => void onSubmit(event)}
          >
            <TextField
              name="email"
              type="email"
              label={t('fields.platformEmail')}
              hint={t('link.emailHint')}
              value={email}
              readOnly
            />
            <FormPasswordField
              control={control}
              name="password"
              purpose="new"
              label={t('fields.platformPassword')}
              hint={t('link.passwordHint')}
            />
            <FormPasswordField
              control={control}
              name="confirm_password"
              purpose="new"
              label={t('fields.confirmPlatformPassword')}
            />
            <Button
              type="submit"
              label={t('link.submit')}
              loading={sending}
              disabled={opened !== null}
              block
            />
          </form>
          <p>
            {t('link.haveAccount')}{' '}
            <AppLink to={routePath('TradearLogin')}>{t('link.toLogin')}</AppLink>
          </p>
        </Card>
      </div>
      <h2>{t('ctrader.title')}</h2>
      <div className={styles.columns}>
        <CTraderCard />
      </div>
      <TradingAccountDialog account={opened} onContinue={toDashboard} />
    </Page>
  );
}
