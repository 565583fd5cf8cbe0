import {
  contactKinds,
  contactLimits,
  contactRequestSchema,
  supportReplyWorkingHours,
  type ContactKind,
} from '@tradebot/contract';
import { useState } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { FormTextAreaField, FormTextField } from '../../../components/form/form-fields';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { RadioCardGroup } from '../../../components/ui/radio-card-group';
import { ApiRequestError } from '../../../lib/api-client';
import { useContractForm } from '../../../lib/contract-form';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { sendContactMessage } from '../api/send-contact-message';
import styles from '../contact.module.css';

const empty = { kind: 'customer_service' as ContactKind, subject: '', message: '' };

/**
 * spec §2 Contact (requires login): customer service, or comments and suggestions. The answer
 * says when support will have replied (24 working hours, docs/decisions/056).
 */
export default function ContactRoute() {
  const { t, language } = useTranslation('support');
  const [sentDueAt, setSentDueAt] = useState<string | null>(null);
  const { control, reset, sending, submitWith } = useContractForm({
    schema: contactRequestSchema,
    defaultValues: empty,
    failureKey: 'forms:errors.sendMessage',
  });
  const kind = useController({ name: 'kind', control }).field;
  const message = useWatch({ control, name: 'message' });

  const onSubmit = submitWith(async (data) => {
    try {
      const sent = await sendContactMessage(data);
      setSentDueAt(sent.dueAt);
      reset({ ...empty, kind: data.kind });
    } catch (error) {
      // The server's words for what the user can act on (a field, a limit, the session);
      // otherwise the spec's "Error sending message".
      if (error instanceof ApiRequestError && error.status < 500) throw error;
      throw new Error('message not sent', { cause: error });
    }
  });

  return (
    <Page title={t('title')} intro={t('intro', { hours: supportReplyWorkingHours })} width="narrow">
      {sentDueAt && (
        <Notice tone="success" title={t('forms:success.messageSent')}>
          {t('sent', { due: formatDateTime(language, sentDueAt) })}
        </Notice>
      )}
      <Card title={t('formTitle')} titleId="contact-form-title">
        <form
          noValidate
          className={styles.form}
          onSubmit={(event) => {
            setSentDueAt(null);
            void onSubmit(event);
          }}
        >
          <RadioCardGroup
            label={t('kind.label')}
            value={kind.value}
            onValueChange={kind.onChange}
            options={contactKinds.map((kind) => ({
              value: kind,
              label: t(`kind.${kind}.label`),
              description: t(`kind.${kind}.description`),
            }))}
          />
          <FormTextField
            control={control}
            name="subject"
            label={t('subject')}
            maxLength={contactLimits.subject.max}
          />
          <FormTextAreaField
            control={control}
            name="message"
            label={t('message')}
            hint={t('messageHint', { count: message.length, max: contactLimits.message.max })}
            maxLength={contactLimits.message.max}
          />
          <Button type="submit" label={t('submit')} loading={sending} />
        </form>
      </Card>
      <p className={styles.note}>{t('hours')}</p>
    </Page>
  );
}
