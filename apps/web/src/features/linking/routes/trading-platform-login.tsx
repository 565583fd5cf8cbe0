import { tradingPlatformLoginRequestSchema } from '@tradebot/contract';
import { useNavigate } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormPasswordField } from '../../../components/form/form-fields';
import { TextField } from '../../../components/ui/form-field';
import { Page } from '../../../components/ui/page';
import { useContractForm } from '../../../lib/contract-form';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { useAuthStore } from '../../../stores/auth';
import { tradingPlatformLogin } from '../api/trading-platform-login';
import styles from '../components/linking.module.css';
import { followStep } from '../follow-step';

/**
 * spec §2 TradearLogin (guards 5 and 6): the user logs in to the trading platform with its
 * credentials, the account's e-mail and the platform password; then the dashboard opens.
 */
export default function TradingPlatformLoginRoute() {
  const { t } = useTranslation('linking');
  const navigate = useNavigate();
  const config = useAuthStore((state) => state.userConfig);
  const showMessage = useAppStore((state) => state.showMessage);
  const { control, sending, submitWith } = useContractForm({
    schema: tradingPlatformLoginRequestSchema,
    defaultValues: { password: '' },
    failureKey: 'forms:errors.login',
  });

  const onSubmit = submitWith(async (data) => {
    await tradingPlatformLogin(data);
    await followStep({ linked: true, login_tradear: true });
    showMessage({ key: 'linking:login.done' });
    await navigate(routePath('Dashboard'));
  });

  return (
    <Page title={t('login.title')} intro={t('login.intro')} width="narrow">
      <Card title={t('platform.title')} titleId="platform-login-title">
        <form
          noValidate
          className={styles.form}
          aria-labelledby="platform-login-title"
          onSubmit={(event) => void onSubmit(event)}
        >
          <TextField
            name="email"
            type="email"
            label={t('fields.platformEmail')}
            value={config?.user.email ?? ''}
            readOnly
          />
          <FormPasswordField
            control={control}
            name="password"
            purpose="current"
            label={t('fields.platformPassword')}
          />
          <Button type="submit" label={t('login.submit')} loading={sending} block />
        </form>
        {config && !config.linked && (
          <p>
            {t('login.noAccount')}{' '}
            <AppLink to={routePath('LinkAccount')}>{t('login.toLink')}</AppLink>
          </p>
        )}
      </Card>
    </Page>
  );
}
