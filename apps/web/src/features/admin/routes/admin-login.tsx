import { adminLoginRequestSchema, adminSecondFactorRequestSchema } from '@tradebot/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  FormEmailField,
  FormPasswordField,
  FormTextField,
} from '../../../components/form/form-fields';
import { LanguageSwitch } from '../../../components/ui/language-switch';
import { Notice } from '../../../components/ui/notice';
import { useContractForm } from '../../../lib/contract-form';
import { useTranslation } from '../../../lib/i18n';
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
  // The half-open session: it can do nothing until the code is given.
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  const passwordStep = useContractForm({
    schema: adminLoginRequestSchema,
    defaultValues: { email: '', password: '' },
    failureKey: 'admin:login.failed',
  });
  const codeStep = useContractForm({
    schema: adminSecondFactorRequestSchema,
    defaultValues: { code: '' },
    failureKey: 'admin:login.failed',
  });

  const submitPassword = passwordStep.submitWith(async (data) => {
    setPendingToken(await adminLogin(data));
  });

  const submitCode = codeStep.submitWith(async (data) => {
    if (!pendingToken) return;
    await adminSecondFactor(pendingToken, data.code);
    await navigate(adminPaths.inbox);
  });

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
              <FormTextField
                control={codeStep.control}
                name="code"
                label={t('login.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                clean={(typed) => typed.replace(/\D/g, '')}
              />
              <Button type="submit" label={t('login.verify')} loading={codeStep.sending} />
              <Button
                color="other"
                label={t('login.restart')}
                onClick={() => {
                  setPendingToken(null);
                  codeStep.reset();
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
              <FormEmailField
                control={passwordStep.control}
                name="email"
                label={t('login.email')}
              />
              <FormPasswordField
                control={passwordStep.control}
                name="password"
                purpose="current"
                label={t('login.password')}
              />
              <Button type="submit" label={t('login.continue')} loading={passwordStep.sending} />
            </form>
          )}
        </Card>
      </div>
    </main>
  );
}
