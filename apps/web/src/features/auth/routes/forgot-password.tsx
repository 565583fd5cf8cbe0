import { AppLink } from '../../../components/ui/app-link';
import { forgotPasswordRequestSchema } from '@tradebot/contract';
import { useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import {
  failureMessage,
  fieldErrorsFromServer,
  validate,
  type FieldErrors,
} from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { forgotPassword, resetEmail } from '../api/password';

/** /forgot-password: always the same confirmation, then on to Set password with the e-mail. */
export default function ForgotPasswordRoute() {
  const { t, language } = useTranslation('auth');
  const navigate = useNavigate();
  const showMessage = useAppStore((state) => state.showMessage);
  const [email, setEmail] = useState(() => resetEmail.get());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sending, setSending] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(forgotPasswordRequestSchema, { email, language });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await forgotPassword({ email: checked.data.email, language });
      resetEmail.set(checked.data.email);
      showMessage({ key: 'auth:forgot.sent' });
      await navigate(routePath('SetPassword'), { state: { email: checked.data.email } });
    } catch (error) {
      const fields = fieldErrorsFromServer(error);
      setErrors(fields);
      if (!Object.keys(fields).length)
        showMessage(failureMessage(error, 'forms:errors.recoverPassword'));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="auth-card card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">{t('forgot.title')}</h1>
      <p className="muted">{t('forgot.lead')}</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          label={t('fields.email')}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
          }}
          error={errors.email}
        />
        <Button
          type="submit"
          label={t('forgot.submit')}
          loading={sending}
          className="button--block"
        />
      </form>
      <p>
        <AppLink to={routePath('SetPassword')}>{t('forgot.haveCode')}</AppLink>
      </p>
      <p>
        <AppLink to={routePath('Login')}>{t('forgot.back')}</AppLink>
      </p>
    </section>
  );
}
