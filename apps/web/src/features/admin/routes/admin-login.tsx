import { adminLoginRequestSchema, adminSecondFactorRequestSchema } from '@tradebot/contract';
import { useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmailField, TextField } from '../../../components/ui/form-field';
import { LanguageSwitch } from '../../../components/ui/language-switch';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { useFormSubmission } from '../../../lib/use-form-submission';
import { adminLogin, adminSecondFactor } from '../api/session';
import { adminPaths } from '../admin-paths';
import styles from '../admin.module.css';

/**
 * The console's sign-in: e-mail and password, then the six-digit code of the admin's
 * authenticator app (TOTP). Nothing opens without both.
 */
export default function AdminLoginRoute() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const [credentials, setCredentials] = useState({ email: '', password: '' });
  const [code, setCode] = useState('');
  // The half-open session: it can do nothing until the code is given.
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  const passwordStep = useFormSubmission(adminLoginRequestSchema, 'admin:login.failed');
  const codeStep = useFormSubmission(adminSecondFactorRequestSchema, 'admin:login.failed');

  const submitPassword = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    await passwordStep.submit(credentials, async (data) => {
      setPendingToken(await adminLogin(data));
    });
  };

  const submitCode = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pendingToken) return;
    await codeStep.submit({ code }, async (data) => {
      await adminSecondFactor(pendingToken, data.code);
      await navigate(adminPaths.inbox);
    });
  };

  return (
    <main id="main" className={styles.login}>
      <div className={styles.loginCard}>
        <Card
          title={t('login.title')}
          titleId="admin-login-title"
          headingLevel={1}
          actions={<LanguageSwitch />}
        >
          {pendingToken ? (
            <form noValidate className={styles.form} onSubmit={(event) => void submitCode(event)}>
              <Notice tone="info">{t('login.codeIntro')}</Notice>
              <TextField
                name="code"
                label={t('login.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(event) => {
                  setCode(event.target.value.replace(/\D/g, ''));
                }}
                error={codeStep.errors.code}
              />
              <Button type="submit" label={t('login.verify')} loading={codeStep.sending} />
              <Button
                color="other"
                label={t('login.restart')}
                onClick={() => {
                  setPendingToken(null);
                  setCode('');
                }}
              />
            </form>
          ) : (
            <form
              noValidate
              className={styles.form}
              onSubmit={(event) => void submitPassword(event)}
            >
              <p className={styles.muted}>{t('login.intro')}</p>
              <EmailField
                label={t('login.email')}
                value={credentials.email}
                onChange={(event) => {
                  setCredentials({ ...credentials, email: event.target.value });
                }}
                error={passwordStep.errors.email}
              />
              <TextField
                name="password"
                type="password"
                autoComplete="current-password"
                label={t('login.password')}
                value={credentials.password}
                onChange={(event) => {
                  setCredentials({ ...credentials, password: event.target.value });
                }}
                error={passwordStep.errors.password}
              />
              <Button type="submit" label={t('login.continue')} loading={passwordStep.sending} />
            </form>
          )}
        </Card>
      </div>
    </main>
  );
}
