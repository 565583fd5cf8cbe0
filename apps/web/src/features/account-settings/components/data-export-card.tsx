import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { useDownloadMyData } from '../api/data-export';
import styles from '../account-settings.module.css';
import { serverMessage } from './failure-text';

/**
 * "Download my data" (issue 39; LGPD art. 18; decision 153): the whole file at once, without
 * writing to support. What it holds and leaves out is said before the click.
 */
export function DataExportCard() {
  const { t } = useTranslation('account-settings');
  const download = useDownloadMyData();
  return (
    <Card title={t('dataExport.title')} titleId="account-data-export-title">
      <p className={styles.text}>{t('dataExport.intro')}</p>
      <p className={styles.text}>{t('dataExport.leftOut')}</p>
      <p>
        <Button
          color="secondary"
          loading={download.isPending}
          onClick={() => {
            download.mutate();
          }}
        >
          {t('dataExport.button')}
        </Button>
      </p>
      {download.isSuccess && (
        <Notice tone="success" title={t('dataExport.done', { file: download.data })} />
      )}
      {download.isError && (
        <Notice tone="error" title={serverMessage(download.error) ?? t('dataExport.failed')} />
      )}
    </Card>
  );
}
