import {
  adminReplyRequestSchema,
  contactLimits,
  type AdminMessageDetail,
} from '@tradebot/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormTextAreaField } from '../../../components/form/form-fields';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { useContractForm } from '../../../lib/contract-form';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useAdminMessage, useMessageActions } from '../api/messages';
import { MessageStatusBadge } from '../components/message-badges';
import { QueryState } from '../components/query-state';
import { adminPaths } from '../admin-paths';
import styles from '../admin.module.css';

/** One message, its thread, and the reply that goes to the user by e-mail. */
export default function MessageRoute() {
  const { id = '' } = useParams();
  const { t } = useTranslation('admin');
  const message = useAdminMessage(id);
  return (
    <Page title={message.data?.subject ?? t('message.title')} width="wide">
      <p>
        <AppLink to={adminPaths.inbox}>{t('message.back')}</AppLink>
      </p>
      <QueryState query={message}>{(data) => <MessageThread message={data} />}</QueryState>
    </Page>
  );
}

function MessageThread({ message }: { message: AdminMessageDetail }) {
  const { t, language } = useTranslation('admin');
  const { reply, setStatus } = useMessageActions(message.id);
  const [replied, setReplied] = useState(false);
  const { control, reset, sending, submitWith } = useContractForm({
    schema: adminReplyRequestSchema,
    defaultValues: { body: '' },
    failureKey: 'admin:message.replyFailed',
  });

  const onReply = submitWith(async (data) => {
    await reply.mutateAsync(data.body);
    reset({ body: '' });
    setReplied(true);
  });

  return (
    <>
      <Card title={t('message.fromTitle')} titleId="message-from">
        <dl className={styles.facts}>
          <div>
            <dt>{t('message.from')}</dt>
            <dd>
              <AppLink to={`${adminPaths.users}/${message.user.id}`}>
                {message.user.name} {message.user.last_name}
              </AppLink>
              <br />
              {message.user.email}
            </dd>
          </div>
          <div>
            <dt>{t('inbox.columns.status')}</dt>
            <dd>
              <MessageStatusBadge message={message} />
            </dd>
          </div>
          <div>
            <dt>{t('inbox.columns.kind')}</dt>
            <dd>{t(`kinds.${message.kind}`)}</dd>
          </div>
          <div>
            <dt>{t('inbox.columns.received')}</dt>
            <dd>{formatDateTime(language, message.createdAt)}</dd>
          </div>
          <div>
            <dt>{t('inbox.columns.due')}</dt>
            <dd>{formatDateTime(language, message.dueAt)}</dd>
          </div>
          <div>
            <dt>{t('message.language')}</dt>
            <dd>{t(`languages.${message.language}`)}</dd>
          </div>
        </dl>
      </Card>
      <Card title={t('message.threadTitle')} titleId="message-thread">
        <ol className={styles.thread}>
          <li className={styles.entry}>
            <p className={styles.entryMeta}>
              {t('message.wrote', {
                name: `${message.user.name} ${message.user.last_name}`,
                at: formatDateTime(language, message.createdAt),
              })}
            </p>
            <p className={styles.body}>{message.body}</p>
          </li>
          {message.thread.map((entry) => (
            <li key={entry.id} className={styles.entry}>
              <p className={styles.entryMeta}>
                {t('message.replied', {
                  name: entry.admin.name,
                  at: formatDateTime(language, entry.createdAt),
                })}
              </p>
              <p className={styles.body}>{entry.body}</p>
            </li>
          ))}
        </ol>
      </Card>
      <Card title={t('message.replyTitle')} titleId="message-reply">
        {replied && (
          <Notice tone="success" title={t('message.replySent', { email: message.user.email })} />
        )}
        <form
          noValidate
          className={styles.form}
          onSubmit={(event) => {
            setReplied(false);
            void onReply(event);
          }}
        >
          <FormTextAreaField
            control={control}
            name="body"
            label={t('message.reply')}
            hint={t('message.replyHint', { language: t(`languages.${message.language}`) })}
            maxLength={contactLimits.reply.max}
          />
          <div className={styles.actions}>
            <Button type="submit" label={t('message.send')} loading={sending} />
            {message.status === 'closed' ? (
              <Button
                color="secondary"
                label={t('message.reopen')}
                loading={setStatus.isPending}
                onClick={() => {
                  setStatus.mutate('open');
                }}
              />
            ) : (
              <Button
                color="secondary"
                label={t('message.close')}
                loading={setStatus.isPending}
                onClick={() => {
                  setStatus.mutate('closed');
                }}
              />
            )}
          </div>
          {setStatus.isError && <Notice tone="error" title={setStatus.error.message} />}
        </form>
      </Card>
    </>
  );
}
