import { AppLink } from '../../../components/ui/app-link';
import { AuthCard } from '../components/auth-card';
import { loginRequestSchema } from '@tradebot/contract';
import { useNavigate, useSearchParams } from 'react-router';
import { routePath } from '../../../lib/route-paths';
import { afterLoginPath } from '../../../lib/return-path';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import {
  FormCheckboxField,
  FormEmailField,
  FormTextField,
} from '../../../components/form/form-fields';
import { useContractForm } from '../../../lib/contract-form';
import { useTranslation } from '../../../lib/i18n';
import { login } from '../api/login';
import { useAuthStore } from '../../../stores/auth';

/** /login (spec §3 Login form: email, password, rememberMe). */
export default function LoginRoute() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // A refused sign-in is said in the form, next to what to fix (issue 23), not in a dialog.
  const { control, failure, sending, submitWith } = useContractForm({
    schema: loginRequestSchema,
    defaultValues: { email: '', password: '', rememberMe: false },
    failureKey: 'forms:errors.login',
    inline: true,
  });

  const onSubmit = submitWith(async (data) => {
    const token = await login(data);
    const auth = useAuthStore.getState();
    auth.signIn(token);
    await useAuthStore.getState().ensureSettings();
    // Back to the page that sent the user here (issue 22), else the dashboard; the guards
    // send a user who has not paid or linked yet where they must go.
    await navigate(afterLoginPath(search));
  });

  return (
    <AuthCard titleId="login-title" title={t('login.title')} lead={t('login.lead')}>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <FormEmailField control={control} name="email" label={t('fields.email')} />
        <FormTextField
          control={control}
          name="password"
          type="password"
          autoComplete="current-password"
          label={t('fields.password')}
        />
        <FormCheckboxField control={control} name="rememberMe">
          {t('fields.rememberMe')}
        </FormCheckboxField>
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
