import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { ApiRequestError } from '../../../lib/api-client';
import { getBilling } from '../../../lib/billing';
import { failureMessage, type FieldError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { chosenPlan, freeMonthState, welcomeState } from '../../../lib/onboarding';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { useAuthStore } from '../../../stores/auth';
import { confirmRegistration, registrationNonce } from '../api/register';
import { AuthCard } from './auth-card';

/**
 * When the free month started at registration ends. Said on the linking page, above its form,
 * not in the overlay: a dialog there opened over the form the user was starting (decision 156).
 */
async function freeMonthEnd(): Promise<string | null> {
  const billing = await getBilling().catch(() => undefined);
  return billing?.subscription?.freeMonth ? billing.subscription.currentPeriodEnd : null;
}

type State =
  | { step: 'confirming' }
  | { step: 'password'; error?: FieldError }
  | { step: 'failed'; message: FieldError };

/**
 * /register?confirmation_token=… (decision 085): the link mailed at registration. The browser
 * that registered holds the nonce and confirms at once; another one asks for the password
 * chosen. Then the new account is signed in and goes on as a registration always did.
 */
export function ConfirmRegistration({ token }: { token: string }) {
  const { t, language } = useTranslation('auth');
  const navigate = useNavigate();
  const showMessage = useAppStore((state) => state.showMessage);
  // Rendered only after hydration: this browser's storage can decide the first step.
  const [nonce] = useState(() => registrationNonce.get());
  const [state, setState] = useState<State>(() =>
    nonce ? { step: 'confirming' } : { step: 'password' },
  );
  const [password, setPassword] = useState('');
  const started = useRef(false);

  /** Confirms with the proof, signs in and goes on; every state change once the server answered. */
  const enter = async (proof: { nonce: string } | { password: string }) => {
    try {
      const confirmed = await confirmRegistration({ token, language, ...proof });
      registrationNonce.clear();
      // The plan chosen before registering, in whichever browser the link is opened (089).
      chosenPlan.remember(confirmed.plan);
      const auth = useAuthStore.getState();
      auth.signIn(confirmed.token);
      await useAuthStore.getState().ensureSettings();
      if (confirmed.promocode === 'expired') showMessage({ key: 'auth:confirm.promocodeExpired' });
      if (useAuthStore.getState().userConfig?.authorized) {
        // A free-month code: access from now on, and the user is told until when.
        const end = await freeMonthEnd();
        await navigate(routePath('LinkAccount'), {
          replace: true,
          ...(end ? { state: freeMonthState(end) } : {}),
        });
        return;
      }
      // A new user has not paid: the payment page welcomes them (decision 086), rather than
      // the dashboard's guard turning them back with "you must pay".
      await navigate(routePath('Payment'), { replace: true, state: welcomeState });
    } catch (error) {
      const passwordError =
        error instanceof ApiRequestError ? error.fieldErrors.password?.[0] : undefined;
      if (passwordError !== undefined) {
        // Another browser, or a nonce from an older registration: the password proves it.
        setState({
          step: 'password',
          ...('nonce' in proof ? {} : { error: { text: passwordError } }),
        });
      } else {
        setState({ step: 'failed', message: failureMessage(error, 'forms:errors.register') });
      }
    }
  };
  // The request's state is the mutation's (the button's loading); its outcome sets the step.
  // The link is single-use: never retried (the client's default for mutations).
  const confirm = useMutation({ mutationFn: enter });
  const sending = confirm.isPending;

  useEffect(() => {
    // Once, on arrival (React's development double effect included): the link is single-use.
    if (started.current || !nonce) return;
    started.current = true;
    confirm.mutate({ nonce });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (state.step === 'failed') {
    return (
      <AuthCard titleId="confirm-title" title={t('confirm.failedTitle')} lead="">
        <Notice tone="error">
          {'text' in state.message ? state.message.text : t(state.message.key)}
        </Notice>
        <p>
          <AppLink to={routePath('Register')}>{t('confirm.registerAgain')}</AppLink>
        </p>
        <p>
          <AppLink to={routePath('Login')}>{t('confirm.login')}</AppLink>
        </p>
      </AuthCard>
    );
  }

  if (state.step === 'password') {
    const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (!password) {
        setState({ step: 'password', error: { key: 'contract:validation.required' } });
        return;
      }
      confirm.mutate({ password });
    };
    return (
      <AuthCard
        titleId="confirm-title"
        title={t('confirm.passwordTitle')}
        lead={t('confirm.passwordLead')}
      >
        <form noValidate onSubmit={onSubmit}>
          <TextField
            name="password"
            type="password"
            autoComplete="current-password"
            label={t('fields.password')}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
            }}
            error={state.error}
          />
          <Button type="submit" label={t('confirm.submit')} loading={sending} block />
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard titleId="confirm-title" title={t('confirm.title')} lead={t('confirm.working')}>
      <Spinner size={40} label={t('confirm.working')} />
    </AuthCard>
  );
}
