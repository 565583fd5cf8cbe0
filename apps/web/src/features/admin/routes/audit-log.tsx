import { adminPageSize, type AdminAuditEntry } from '@tradebot/contract';
import { useState } from 'react';
import { Card } from '../../../components/ui/card';
import { Page } from '../../../components/ui/page';
import { Table } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useAuditLog } from '../api/audit-log';
import { auditEntryText } from '../audit-entry';
import { Pager, QueryState } from '../components/query-state';
import styles from '../admin.module.css';

/** A recorded state (before or after an action), as the audit log stored it. */
function State({ value }: { value: AdminAuditEntry['before'] }) {
  const { t } = useTranslation('admin');
  if (value === null) return <span className={styles.muted}>{t('audit.nothing')}</span>;
  return <code className={`${styles.code} ${styles.state}`}>{JSON.stringify(value, null, 1)}</code>;
}

/** Every admin action, newest first: who, what, when, before and after. */
export default function AuditLogRoute() {
  const { t, language } = useTranslation('admin');
  const [offset, setOffset] = useState(0);
  const log = useAuditLog(offset);
  return (
    <Page title={t('audit.title')} intro={t('audit.intro')} width="wide">
      <Card title={t('audit.listTitle')} titleId="audit-list">
        <QueryState query={log}>
          {(data) =>
            data.entries.length === 0 ? (
              <p className={styles.muted}>{t('audit.empty')}</p>
            ) : (
              <>
                <Table
                  caption={t('audit.listTitle')}
                  captionHidden
                  columns={[
                    t('audit.when'),
                    t('audit.who'),
                    t('audit.what'),
                    t('audit.target'),
                    t('audit.before'),
                    t('audit.after'),
                  ]}
                >
                  {data.entries.map((entry) => {
                    const text = auditEntryText(entry, t);
                    return (
                      <tr key={entry.id}>
                        <td className={styles.nowrap}>{formatDateTime(language, entry.at)}</td>
                        <td>
                          {text.who}
                          {text.whoDetail ? (
                            <>
                              <br />
                              <span className={styles.muted}>{text.whoDetail}</span>
                            </>
                          ) : null}
                        </td>
                        <td>{text.what}</td>
                        <td className={styles.code}>{text.target}</td>
                        <td>
                          <State value={entry.before} />
                        </td>
                        <td>
                          <State value={entry.after} />
                        </td>
                      </tr>
                    );
                  })}
                </Table>
                <Pager
                  offset={offset}
                  pageSize={adminPageSize}
                  total={data.total}
                  onOffset={setOffset}
                />
              </>
            )
          }
        </QueryState>
      </Card>
    </Page>
  );
}
