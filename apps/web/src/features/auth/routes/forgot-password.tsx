import { AppLink } from '../../../components/ui/app-link';
import { AuthCard } from '../components/auth-card';
import { forgotPasswordRequestSchema } from '@tradebot/contract';
import { useNavigate } from 'react-router';
import { useWatch } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { FormEmailField } from '../../../components/form/form-fields';
import { useContractForm } from '../../../lib/contract-form';
import { useTranslation } from '../../../lib/i18n';
import { useRestoreFormAfterHydration } from '../../../lib/use-hydrated';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { forgotPassword, resetEmail } from '../api/password';

/**
 * /forgot-password: always the same confirmation, then on to Set password with the e-mail; the
 * "I already have a code" link carries the e-mail typed too.
 */
export default function ForgotPasswordRoute() {
  const { t, language } = useTranslation('auth');
  const navigate = useNavigate();
  const showMessage = useAppStore((state) => state.showMessage);
  const { control, getValues, setValue, sending, submitWith } = useContractForm({
    schema: forgotPasswordRequestSchema,
    defaultValues: { email: '' },
    toRequest: ({ email }) => ({ email, language }),
    failureKey: 'forms:errors.recoverPassword',
  });
  // The address this tab last asked a code for (docs/decisions/034).
  useRestoreFormAfterHydration(() => {
    const stored = resetEmail.get();
    if (stored && getValues('email') === '') setValue('email', stored);
  });

  // "I already have a code" takes the address typed so far along, in the router's state (not
  // the URL, which would keep it in the history): Set password starts with it (issue 39).
  const typed = useWatch({ control, name: 'email' }).trim();

  const onSubmit = submitWith(async (data) => {
    await forgotPassword({ email: data.email, language });
    resetEmail.set(data.email);
    showMessage({ key: 'auth:forgot.sent' });
    await navigate(routePath('SetPassword'), { state: { email: data.email } });
  });

  return (
    <AuthCard titleId="forgot-title" title={t('forgot.title')} lead={t('forgot.lead')}>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <FormEmailField control={control} name="email" label={t('fields.email')} />
        <Button type="submit" label={t('forgot.submit')} loading={sending} block />
      </form>
      <p>
        <AppLink to={routePath('SetPassword')} state={typed ? { email: typed } : undefined}>
          {t('forgot.haveCode')}
        </AppLink>
      </p>
      <p>
        <AppLink to={routePath('Login')}>{t('forgot.back')}</AppLink>
      </p>
    </AuthCard>
  );
}
