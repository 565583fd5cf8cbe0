import { AppLink } from '../../../components/ui/app-link';
import { AuthCard } from '../components/auth-card';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { routePath } from '../../../lib/route-paths';
import { afterLoginPath } from '../../../lib/return-path';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import {
  FormCheckboxField,
  FormEmailField,
  FormPasswordField,
} from '../../../components/form/form-fields';
import { useContractForm } from '../../../lib/contract-form';
import { useTranslation } from '../../../lib/i18n';
import { login } from '../api/login';
import { dropSignInToken, heldSignInToken, takeSignInToken } from '../sign-in-link';
import { ApiRequestError } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';

const loadLoginSchema = () =>
  import('../api/login-schema').then(({ loginRequestSchema }) => loginRequestSchema);

/** /login (spec §3 Login form: email, password, rememberMe). */
export default function LoginRoute() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  // The one-time link of a sign-in alert e-mail (decision 130): its token leaves the address
  // bar for this tab's sessionStorage, and goes with the next sign-in.
  const [withLink, setWithLink] = useState(() => {
    takeSignInToken(search);
    return heldSignInToken() !== undefined;
  });
  useEffect(() => {
    const rest = takeSignInToken(search);
    if (rest) setSearch(rest, { replace: true });
  }, [search, setSearch]);
  // A refused sign-in is said in the form, next to what to fix (issue 23), not in a dialog.
  // The schema is imported on the form's first focus (or when it is sent): zod is not needed
  // to show or hydrate the page (docs/benchmarks.md, issue 39 point 12).
  const { control, failure, prepare, sending, submitWith } = useContractForm({
    schema: loadLoginSchema,
    defaultValues: { email: '', password: '', rememberMe: false },
    failureKey: 'forms:errors.login',
    inline: true,
  });

  const onSubmit = submitWith(async (data) => {
    const signInToken = heldSignInToken();
    let token: string;
    try {
      token = await login(signInToken === undefined ? data : { ...data, signInToken });
    } catch (error) {
      // Unknown, used or expired: the message says so, and the next try goes without it.
      if (signInToken !== undefined && error instanceof ApiRequestError && error.status === 404) {
        dropSignInToken();
        setWithLink(false);
      }
      throw error;
    }
    dropSignInToken();
    const auth = useAuthStore.getState();
    auth.signIn(token);
    await useAuthStore.getState().ensureSettings();
    // Back to the page that sent the user here (issue 22), else the dashboard; the guards
    // send a user who has not paid or linked yet where they must go.
    await navigate(afterLoginPath(search));
  });

  return (
    <AuthCard titleId="login-title" title={t('login.title')} lead={t('login.lead')}>
      {withLink && <Notice tone="info">{t('login.withLink')}</Notice>}
      <form noValidate onFocus={prepare} onSubmit={(event) => void onSubmit(event)}>
        <FormEmailField control={control} name="email" label={t('fields.email')} />
        <FormPasswordField
          control={control}
          name="password"
          purpose="current"
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
