import { AppLink } from '../../../components/ui/app-link';
import { AuthCard } from '../components/auth-card';
import { setPasswordRequestSchema } from '@tradebot/contract';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormTextField } from '../../../components/form/form-fields';
import { useContractForm } from '../../../lib/contract-form';
import { useTranslation } from '../../../lib/i18n';
import { useRestoreFormAfterHydration } from '../../../lib/use-hydrated';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { resetEmail, setPassword } from '../api/password';

const fields = [
  { name: 'email', type: 'email', autoComplete: 'email', label: 'fields.email' },
  {
    name: 'otp',
    type: 'text',
    autoComplete: 'one-time-code',
    label: 'fields.otp',
    hint: 'hints.otp',
  },
  {
    name: 'password',
    type: 'password',
    autoComplete: 'new-password',
    label: 'fields.newPassword',
    hint: 'hints.password',
  },
  {
    name: 'confirm_password',
    type: 'password',
    autoComplete: 'new-password',
    label: 'fields.confirmNewPassword',
  },
] as const;
type Values = Record<(typeof fields)[number]['name'], string>;

/** /set-password: e-mail (carried from Forgot password, editable), code, new password twice. */
export default function SetPasswordRoute() {
  const { t, language } = useTranslation('auth');
  const navigate = useNavigate();
  const location = useLocation();
  const showMessage = useAppStore((state) => state.showMessage);
  const carried = (location.state as { email?: unknown } | null)?.email;
  const { control, getValues, setValue, sending, submitWith } = useContractForm({
    schema: setPasswordRequestSchema,
    defaultValues: {
      email: typeof carried === 'string' ? carried : '',
      otp: '',
      password: '',
      confirm_password: '',
    } satisfies Values,
    toRequest: (values) => ({ ...values, language }),
    failureKey: 'forms:errors.recoverPassword',
  });
  // Without router state (a reload), the address this tab asked a code for.
  useRestoreFormAfterHydration(() => {
    const stored = resetEmail.get();
    if (stored && getValues('email') === '') setValue('email', stored);
  });

  const onSubmit = submitWith(async (data) => {
    await setPassword(data);
    resetEmail.clear();
    showMessage({ key: 'forms:success.passwordChanged' });
    await navigate(routePath('Login'));
  });

  return (
    <AuthCard
      titleId="set-password-title"
      title={t('setPassword.title')}
      lead={t('setPassword.lead')}
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        {fields.map((field) => (
          <FormTextField
            key={field.name}
            control={control}
            name={field.name}
            type={field.type}
            autoComplete={field.autoComplete}
            {...(field.name === 'otp' ? { inputMode: 'numeric' as const, maxLength: 6 } : {})}
            label={t(field.label)}
            {...('hint' in field ? { hint: t(field.hint) } : {})}
          />
        ))}
        <Button type="submit" label={t('setPassword.submit')} loading={sending} block />
      </form>
      <p>
        <AppLink to={routePath('ForgotPassword')}>{t('setPassword.resend')}</AppLink>
      </p>
    </AuthCard>
  );
}
