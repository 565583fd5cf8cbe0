import {
  contactKinds,
  contactLimits,
  contactRequestSchema,
  supportReplyWorkingHours,
  type ContactKind,
} from '@tradebot/contract';
import { useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { RadioCardGroup } from '../../../components/ui/radio-card-group';
import { ApiRequestError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useFormSubmission } from '../../../lib/use-form-submission';
import { sendContactMessage } from '../api/send-contact-message';
import styles from '../contact.module.css';

const empty = { kind: 'customer_service' as ContactKind, subject: '', message: '' };

/**
 * spec §2 Contact (requires login): customer service, or comments and suggestions. The answer
 * says when support will have replied (24 working hours, docs/decisions/056).
 */
export default function ContactRoute() {
  const { t, language } = useTranslation('support');
  const [values, setValues] = useState(empty);
  const [sentDueAt, setSentDueAt] = useState<string | null>(null);
  const { errors, sending, submit } = useFormSubmission(
    contactRequestSchema,
    'forms:errors.sendMessage',
  );

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSentDueAt(null);
    await submit(values, async (data) => {
      try {
        const sent = await sendContactMessage(data);
        setSentDueAt(sent.dueAt);
        setValues({ ...empty, kind: values.kind });
      } catch (error) {
        // The server's words for what the user can act on (a field, a limit, the session);
        // otherwise the spec's "Error sending message".
        if (error instanceof ApiRequestError && error.status < 500) throw error;
        throw new Error('message not sent', { cause: error });
      }
    });
  };

  return (
    <Page title={t('title')} intro={t('intro', { hours: supportReplyWorkingHours })} width="narrow">
      {sentDueAt && (
        <Notice tone="success" title={t('forms:success.messageSent')}>
          {t('sent', { due: formatDateTime(language, sentDueAt) })}
        </Notice>
      )}
      <Card title={t('formTitle')} titleId="contact-form-title">
        <form noValidate className={styles.form} onSubmit={(event) => void onSubmit(event)}>
          <RadioCardGroup
            label={t('kind.label')}
            value={values.kind}
            onValueChange={(kind) => {
              setValues({ ...values, kind });
            }}
            options={contactKinds.map((kind) => ({
              value: kind,
              label: t(`kind.${kind}.label`),
              description: t(`kind.${kind}.description`),
            }))}
          />
          <TextField
            name="subject"
            label={t('subject')}
            value={values.subject}
            maxLength={contactLimits.subject.max}
            onChange={(event) => {
              setValues({ ...values, subject: event.target.value });
            }}
            error={errors.subject}
          />
          <TextAreaField
            name="message"
            label={t('message')}
            hint={t('messageHint', {
              count: values.message.length,
              max: contactLimits.message.max,
            })}
            value={values.message}
            maxLength={contactLimits.message.max}
            onChange={(event) => {
              setValues({ ...values, message: event.target.value });
            }}
            error={errors.message}
          />
          <Button type="submit" label={t('submit')} loading={sending} />
        </form>
      </Card>
      <p className={styles.note}>{t('hours')}</p>
    </Page>
  );
}
