import { AppLink } from '../../../components/ui/app-link';
import { AuthCard } from '../components/auth-card';
import { loginRequestSchema } from '@tradebot/contract';
import { useState, type SubmitEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { routePath } from '../../../lib/route-paths';
import { afterLoginPath } from '../../../lib/return-path';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { EmailField, TextField } from '../../../components/ui/form-field';
import { useFormSubmission } from '../../../lib/use-form-submission';
import { useTranslation } from '../../../lib/i18n';
import { login } from '../api/login';
import { useAuthStore } from '../../../stores/auth';

/** /login (spec §3 Login form: email, password, rememberMe). */
export default function LoginRoute() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [values, setValues] = useState({ email: '', password: '', rememberMe: false });
  // A refused sign-in is said in the form, next to what to fix (issue 23), not in a dialog.
  const { errors, failure, sending, submit } = useFormSubmission(
    loginRequestSchema,
    'forms:errors.login',
    { inline: true },
  );

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    await submit(values, async (data) => {
      const token = await login(data);
      const auth = useAuthStore.getState();
      auth.signIn(token);
      await useAuthStore.getState().ensureSettings();
      // Back to the page that sent the user here (issue 22), else the dashboard; the guards
      // send a user who has not paid or linked yet where they must go.
      await navigate(afterLoginPath(search));
    });
  };

  return (
    <AuthCard titleId="login-title" title={t('login.title')} lead={t('login.lead')}>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <EmailField
          label={t('fields.email')}
          value={values.email}
          onChange={(event) => {
            setValues({ ...values, email: event.target.value });
          }}
          error={errors.email}
        />
        <TextField
          name="password"
          type="password"
          autoComplete="current-password"
          label={t('fields.password')}
          value={values.password}
          onChange={(event) => {
            setValues({ ...values, password: event.target.value });
          }}
          error={errors.password}
        />
        <CheckboxField
          name="rememberMe"
          checked={values.rememberMe}
          onChange={(rememberMe) => {
            setValues({ ...values, rememberMe });
          }}
        >
          {t('fields.rememberMe')}
        </CheckboxField>
        {failure && (
          <Notice tone="error">{'text' in failure ? failure.text : t(failure.key)}</Notice>
        )}
        <Button type="submit" label={t('login.submit')} loading={sending} block />
      </form>
      <p>
        <AppLink to={routePath('ForgotPassword')}>{t('login.forgot')}</AppLink>
      </p>
      <p>
        {t('login.noAccount')} <AppLink to={routePath('Register')}>{t('login.register')}</AppLink>
      </p>
    </AuthCard>
  );
}
