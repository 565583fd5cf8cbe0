import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { liveDataFailure } from '../live-data-error';

/**
 * The dashboard's state while get-all-data fails: translated, with the server's message when
 * it sent one, and retrying by itself (every few seconds) when a retry may help.
 */
export function LiveDataError({
  error,
  retrying,
  onRetry,
}: {
  error: unknown;
  /** A request is under way. */
  retrying: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation('dashboard');
  const failure = liveDataFailure(error);
  return (
    <Notice
      tone="error"
      title={t('loadError')}
      action={
        <Button size="sm" color="other" loading={retrying} disabled={retrying} onClick={onRetry}>
          {t('retry')}
        </Button>
      }
    >
      <p>{failure.kind === 'server' ? failure.text : t('liveError.unreachable')}</p>
      {failure.retrying && <p>{t('liveError.retrying')}</p>}
    </Notice>
  );
}
