import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { AppLink } from '../../../components/ui/app-link';
import { AuthCard, FinePrint } from '../components/auth-card';
import { privacyPolicyVersion, registerRequestSchema, type Language } from '@tradebot/contract';
import { useEffect, useState } from 'react';
import { useController } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { FormCheckboxField, FormTextField, shownError } from '../../../components/form/form-fields';
import { TextField } from '../../../components/ui/form-field';
import { useContractForm } from '../../../lib/contract-form';
import { useRestoreFormAfterHydration } from '../../../lib/use-hydrated';
import { useTranslation } from '../../../lib/i18n';
import { chosenPlan } from '../../../lib/onboarding';
import { queryClient } from '../../../lib/query-client';
import { routePath } from '../../../lib/route-paths';
import { storedTracking } from '../../../lib/tracking';
import { register, registrationNonce } from '../api/register';
import {
  promocodeRefused,
  usePromocodeStatus,
  type PromocodeStatus,
} from '../hooks/use-promocode-status';
import { useHydrated } from '../../../lib/use-hydrated';
import { ConfirmRegistration } from '../components/confirm-registration';
import { registerPayload, type RegisterValues } from '../register-form';
import styles from './register.module.css';

const textFields = [
  { name: 'name', type: 'text', autoComplete: 'given-name' },
  { name: 'last_name', type: 'text', autoComplete: 'family-name' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'phone', type: 'tel', autoComplete: 'tel', hint: 'hints.phone' },
  { name: 'password', type: 'password', autoComplete: 'new-password', hint: 'hints.password' },
  { name: 'confirm_password', type: 'password', autoComplete: 'new-password' },
] as const;

function promocodeStatusText(status: PromocodeStatus, t: (key: string) => string) {
  switch (status.state) {
    case 'validating':
      return t('promo.validating');
    case 'valid':
      return status.benefit === 'free_month' ? t('promo.valid') : t('promo.validGeneric');
    case 'invalid':
    case 'empty':
    case 'unknown':
      return undefined;
  }
}

/** The privacy policy's version, a date, as the reader writes dates ("25 de noviembre de 2026"). */
function policyDate(language: Language) {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${privacyPolicyVersion}T00:00:00Z`),
  );
}

/**
 * /register (spec §3 Register form, §5 validation, issue 4), then "check your inbox"; the link
 * mailed comes back here with `confirmation_token` (decision 085). The link is read after
 * hydration: the prerendered page is the form.
 */
export default function RegisterRoute() {
  const hydrated = useHydrated();
  const [search] = useSearchParams();
  const token = hydrated ? search.get('confirmation_token') : null;
  const plan = hydrated ? search.get('plan') : null;
  useEffect(() => {
    // The plan chosen on the home page, offered first at payment (decision 086).
    chosenPlan.remember(plan);
  }, [plan]);
  // The promotional code's check and the confirmation are server state: their own query client,
  // as the public track record's (the logged-in screens' layouts are not around this page).
  return (
    <QueryClientProvider client={queryClient}>
      {token ? <ConfirmRegistration key={token} token={token} /> : <RegisterForm />}
    </QueryClientProvider>
  );
}

function RegisterForm() {
  const { t, language } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const client = useQueryClient();
  const { control, getValues, setValue, setFocus, sending, submitWith } = useContractForm({
    schema: registerRequestSchema,
    defaultValues: {
      name: '',
      last_name: '',
      email: '',
      phone: '',
      password: '',
      confirm_password: '',
      // spec §3: terms pre-ticked. Privacy consent and the newsletter are not (decision 087).
      accept_terms: true,
      accept_privacy: false,
      subscribe_newsletter: false,
      promocode: '',
    } satisfies RegisterValues,
    toRequest: (values) => registerPayload(values, storedTracking(), language, chosenPlan.get()),
    failureKey: 'forms:errors.register',
  });
  // The promo code a campaign link stored (spec §4 tracking parameters) prefills the field.
  useRestoreFormAfterHydration(() => {
    const stored = storedTracking().promocode;
    if (stored && getValues('promocode') === '') setValue('promocode', stored);
  });
  const {
    field: { ref: promocodeRef, ...promocodeField },
    fieldState: promocodeState,
  } = useController({ name: 'promocode', control });
  const promocode = usePromocodeStatus(promocodeField.value);
  const promocodeError =
    promocode.state === 'invalid'
      ? { key: 'contract:validation.promocodeInvalid' }
      : shownError(promocodeState.error);

  const onSubmit = submitWith(
    async (data) => {
      registrationNonce.set(await register(data));
      setSentTo(data.email);
    },
    // A code still being checked is waited for, not a reason to drop the click (issue 39).
    async () => {
      const refused = await promocodeRefused(client, getValues('promocode'));
      if (refused) setFocus('promocode');
      return refused;
    },
  );

  if (sentTo) {
    return (
      <AuthCard
        titleId="register-title"
        title={t('checkInbox.title')}
        lead={t('checkInbox.lead', { email: sentTo })}
        replacesView
      >
        <Notice tone="success">{t('checkInbox.sameBrowser')}</Notice>
        <p>{t('checkInbox.validity')}</p>
        <Button
          type="button"
          color="secondary"
          label={t('checkInbox.again')}
          onClick={() => {
            setSentTo(null);
          }}
          block
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard titleId="register-title" title={t('register.title')} lead={t('register.lead')} wide>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <div className={styles.grid}>
          {textFields.map((field) => (
            <FormTextField
              key={field.name}
              control={control}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              label={t(`fields.${field.name}`)}
              {...('hint' in field ? { hint: t(field.hint) } : {})}
            />
          ))}
        </div>
        <TextField
          ref={promocodeRef}
          name="promocode"
          autoComplete="off"
          label={t('fields.promocode')}
          value={promocodeField.value}
          onChange={promocodeField.onChange}
          onBlur={promocodeField.onBlur}
          status={promocodeStatusText(promocode, t)}
          error={promocodeError}
        />
        <FormCheckboxField control={control} name="accept_terms">
          {t('acceptTerms.before')}
          <AppLink to="/terms-and-conditions" target="_blank" rel="noopener">
            {t('acceptTerms.terms')}
          </AppLink>
          {t('acceptTerms.after')}
        </FormCheckboxField>
        <FormCheckboxField control={control} name="accept_privacy">
          {t('acceptPrivacy.before')}
          <AppLink to="/privacy-policy" target="_blank" rel="noopener">
            {t('acceptPrivacy.privacy')}
          </AppLink>
          {t('acceptPrivacy.after', { date: policyDate(language) })}
        </FormCheckboxField>
        <FormCheckboxField control={control} name="subscribe_newsletter">
          {t('newsletterOptIn.label')}
        </FormCheckboxField>
        <Button
          type="submit"
          label={t('register.submit')}
          loading={sending}
          disabled={sending}
          block
        />
      </form>
      <p>
        {t('register.hasAccount')} <AppLink to={routePath('Login')}>{t('register.login')}</AppLink>
      </p>
      <FinePrint>{t('register.risk')}</FinePrint>
    </AuthCard>
  );
}
