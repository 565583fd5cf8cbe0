import { adminMessageFilters, adminPageSize, type AdminMessageFilter } from '@tradebot/contract';
import { useState } from 'react';
import { AppLink } from '../../../components/ui/app-link';
import { Card } from '../../../components/ui/card';
import { Page } from '../../../components/ui/page';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Table } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useAdminMessages } from '../api/messages';
import { MessageStatusBadge } from '../components/message-badges';
import { Pager, QueryState } from '../components/query-state';
import { adminPaths } from '../admin-paths';
import styles from '../admin.module.css';

/** The inbox: open messages by due time, the overdue ones first and marked. */
export default function InboxRoute() {
  const { t, language } = useTranslation('admin');
  const [status, setStatus] = useState<AdminMessageFilter>('open');
  const [offset, setOffset] = useState(0);
  const messages = useAdminMessages(status, offset);

  return (
    <Page title={t('inbox.title')} intro={t('inbox.intro')} width="wide">
      <Card
        title={t('inbox.listTitle')}
        titleId="inbox-title"
        actions={
          <SegmentedControl
            label={t('inbox.filter')}
            value={status}
            onValueChange={(next) => {
              setStatus(next);
              setOffset(0);
            }}
            options={adminMessageFilters.map((filter) => ({
              value: filter,
              label: t(`inbox.filters.${filter}`),
            }))}
          />
        }
      >
        <QueryState query={messages}>
          {(data) => (
            <>
              {data.overdue > 0 && (
                <p className={styles.muted} role="status">
                  {t('inbox.overdueCount', { count: data.overdue })}
                </p>
              )}
              {data.messages.length === 0 ? (
                <p className={styles.muted}>{t('inbox.empty')}</p>
              ) : (
                <Table
                  caption={t('inbox.listTitle')}
                  captionHidden
                  columns={[
                    t('inbox.columns.status'),
                    t('inbox.columns.due'),
                    t('inbox.columns.subject'),
                    t('inbox.columns.from'),
                    t('inbox.columns.kind'),
                    t('inbox.columns.received'),
                    t('inbox.columns.replies'),
                  ]}
                >
                  {data.messages.map((message) => (
                    <tr key={message.id} data-tone={message.overdue ? 'warning' : undefined}>
                      <td>
                        <MessageStatusBadge message={message} />
                      </td>
                      <td className={styles.nowrap}>{formatDateTime(language, message.dueAt)}</td>
                      <td>
                        <AppLink to={`${adminPaths.inbox}/${message.id}`}>
                          {message.subject}
                        </AppLink>
                      </td>
                      <td>
                        {message.user.name} {message.user.last_name}
                        <br />
                        <span className={styles.muted}>{message.user.email}</span>
                      </td>
                      <td>{t(`kinds.${message.kind}`)}</td>
                      <td className={styles.nowrap}>
                        {formatDateTime(language, message.createdAt)}
                      </td>
                      <td>{message.replies}</td>
                    </tr>
                  ))}
                </Table>
              )}
              <Pager
                offset={offset}
                pageSize={adminPageSize}
                total={data.total}
                onOffset={setOffset}
              />
            </>
          )}
        </QueryState>
      </Card>
    </Page>
  );
}
