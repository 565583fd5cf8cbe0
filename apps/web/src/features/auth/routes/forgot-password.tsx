import { AppLink } from '../../../components/ui/app-link';
import { AuthCard } from '../components/auth-card';
import { forgotPasswordRequestSchema } from '@tradebot/contract';
import { useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmailField } from '../../../components/ui/form-field';
import { useFormSubmission } from '../../../lib/use-form-submission';
import { useTranslation } from '../../../lib/i18n';
import { useRestoreAfterHydration } from '../../../lib/use-hydrated';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { forgotPassword, resetEmail } from '../api/password';

/** /forgot-password: always the same confirmation, then on to Set password with the e-mail. */
export default function ForgotPasswordRoute() {
  const { t, language } = useTranslation('auth');
  const navigate = useNavigate();
  const showMessage = useAppStore((state) => state.showMessage);
  const [email, setEmail] = useState('');
  // The address this tab last asked a code for (docs/decisions/034).
  useRestoreAfterHydration(() => {
    const stored = resetEmail.get();
    if (stored) setEmail((current) => current || stored);
  });
  const { errors, sending, submit } = useFormSubmission(
    forgotPasswordRequestSchema,
    'forms:errors.recoverPassword',
  );

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    await submit({ email, language }, async (data) => {
      await forgotPassword({ email: data.email, language });
      resetEmail.set(data.email);
      showMessage({ key: 'auth:forgot.sent' });
      await navigate(routePath('SetPassword'), { state: { email: data.email } });
    });
  };

  return (
    <AuthCard titleId="forgot-title" title={t('forgot.title')} lead={t('forgot.lead')}>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <EmailField
          label={t('fields.email')}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
          }}
          error={errors.email}
        />
        <Button type="submit" label={t('forgot.submit')} loading={sending} block />
      </form>
      <p>
        <AppLink to={routePath('SetPassword')}>{t('forgot.haveCode')}</AppLink>
      </p>
      <p>
        <AppLink to={routePath('Login')}>{t('forgot.back')}</AppLink>
      </p>
    </AuthCard>
  );
}
