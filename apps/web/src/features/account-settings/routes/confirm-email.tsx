import { useSearchParams } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useConfirmEmailChange, useUndoEmailChange } from '../api/change-email';
import styles from '../account-settings.module.css';
import { serverMessage } from '../components/failure-text';

/**
 * /confirm-email (decision 089): where the links an e-mail change mails lead. `token` (mailed
 * to the new address) makes it the account's; `undo_token` (mailed to the old one) undoes the
 * change and ends every session. No session needed: the link may be opened on another device.
 * Each acts on a click, not on opening: mail scanners open links too.
 */
export default function ConfirmEmailRoute() {
  const { t } = useTranslation('account-settings');
  const [search] = useSearchParams();
  const token = search.get('token');
  const undoToken = search.get('undo_token');
  return (
    <Page title={t(undoToken ? 'confirmEmail.undoTitle' : 'confirmEmail.title')} width="narrow">
      {undoToken ? (
        <UndoChange token={undoToken} />
      ) : token ? (
        <ConfirmChange token={token} />
      ) : (
        <Notice tone="error">{t('confirmEmail.missing')}</Notice>
      )}
    </Page>
  );
}

function ConfirmChange({ token }: { token: string }) {
  const { t } = useTranslation('account-settings');
  const confirm = useConfirmEmailChange();
  if (confirm.isSuccess) {
    return (
      <Card title={t('confirmEmail.doneTitle')} titleId="confirm-email-result">
        <Notice tone="success">{t('confirmEmail.done', { email: confirm.data })}</Notice>
        <p className={styles.text}>
          <AppLink to={routePath('AccountSettings')}>{t('confirmEmail.toSettings')}</AppLink>
        </p>
      </Card>
    );
  }
  return (
    <Card title={t('confirmEmail.askTitle')} titleId="confirm-email-ask">
      <p className={styles.text}>{t('confirmEmail.ask')}</p>
      {confirm.isError && (
        <Notice tone="error">{serverMessage(confirm.error) ?? t('confirmEmail.failed')}</Notice>
      )}
      <div className={styles.form}>
        <div>
          <Button
            loading={confirm.isPending}
            onClick={() => {
              confirm.mutate(token);
            }}
          >
            {t('confirmEmail.submit')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function UndoChange({ token }: { token: string }) {
  const { t } = useTranslation('account-settings');
  const undo = useUndoEmailChange();
  if (undo.isSuccess) {
    return (
      <Card title={t('confirmEmail.undoneTitle')} titleId="confirm-email-result">
        <Notice tone="success">
          {undo.data.restored ? t('confirmEmail.restored') : t('confirmEmail.cancelled')}
        </Notice>
        <p className={styles.text}>{t('confirmEmail.newPassword')}</p>
        <p className={styles.text}>
          <AppLink to={routePath('ForgotPassword')}>{t('confirmEmail.toForgotPassword')}</AppLink>
        </p>
      </Card>
    );
  }
  return (
    <Card title={t('confirmEmail.undoAskTitle')} titleId="confirm-email-ask">
      <p className={styles.text}>{t('confirmEmail.undoAsk')}</p>
      {undo.isError && (
        <Notice tone="error">{serverMessage(undo.error) ?? t('confirmEmail.failed')}</Notice>
      )}
      <div className={styles.form}>
        <div>
          <Button
            color="danger"
            loading={undo.isPending}
            onClick={() => {
              undo.mutate(token);
            }}
          >
            {t('confirmEmail.undoSubmit')}
          </Button>
        </div>
      </div>
    </Card>
  );
}
