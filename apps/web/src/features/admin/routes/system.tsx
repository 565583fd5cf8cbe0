import type { AdminSystem, SystemProcess } from '@tradebot/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Page } from '../../../components/ui/page';
import { Table } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useSystem } from '../api/system';
import { QueryState } from '../components/query-state';
import styles from '../admin.module.css';

/** A tick this late (ms) is worth a look: the market runs on one-second ticks. */
const lateTickMs = 1_000;

function ProcessRow({ process }: { process: SystemProcess }) {
  const { t, language } = useTranslation('admin');
  const moves = process.leaseMoves;
  return (
    <tr>
      <td>
        <span className={styles.code}>{process.process}</span>
        {process.self ? (
          <>
            {' '}
            <Badge tone="info">{t('system.self')}</Badge>
          </>
        ) : null}
      </td>
      <td>{process.accounts.toLocaleString(language)}</td>
      <td className={styles.nowrap}>
        {process.tickLagMs === null ? (
          <span className={styles.muted}>{t('system.noReport')}</span>
        ) : (
          <>
            {t('system.ms', { count: Math.round(process.tickLagMs) })}
            {process.tickLagMs >= lateTickMs ? (
              <>
                {' '}
                <Badge tone="warning">{t('system.late')}</Badge>
              </>
            ) : null}
          </>
        )}
      </td>
      <td className={styles.nowrap}>
        {t('system.moves', { claimed: moves.claimed, lost: moves.lost, released: moves.released })}
      </td>
      <td className={styles.nowrap}>
        {process.reportedAt === null ? (
          <span className={styles.muted}>{t('system.noReport')}</span>
        ) : (
          formatDateTime(language, process.reportedAt)
        )}
      </td>
      <td>
        {process.errors.length === 0 ? (
          <span className={styles.muted}>{t('system.noErrors')}</span>
        ) : (
          <ul className={styles.plainList}>
            {process.errors.map((error) => (
              <li key={`${error.at}-${error.message}`}>
                <span className={styles.nowrap}>{formatDateTime(language, error.at)}</span>{' '}
                <span className={styles.code}>{error.message}</span>
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** The processes and their figures (the page's body once loaded). */
export function SystemView({ system }: { system: AdminSystem }) {
  const { t, language } = useTranslation('admin');
  return (
    <>
      <p>
        {t(system.mode === 'scaled' ? 'system.scaled' : 'system.embedded')}{' '}
        {system.mode === 'scaled' ? t('system.unheld', { count: system.unheldAccounts }) : null}
      </p>
      <p className={styles.muted}>
        {t('system.checkedAt', { at: formatDateTime(language, system.checkedAt) })}
      </p>
      {system.processes.length === 0 ? (
        <p className={styles.muted}>{t('system.empty')}</p>
      ) : (
        <Table
          caption={t('system.listTitle')}
          captionHidden
          columns={[
            t('system.process'),
            t('system.accounts'),
            t('system.tickLag'),
            t('system.leaseMoves'),
            t('system.reportedAt'),
            t('system.errors'),
          ]}
        >
          {system.processes.map((process) => (
            <ProcessRow key={process.process} process={process} />
          ))}
        </Table>
      )}
    </>
  );
}

/**
 * The system page (decision 160): the server processes running the robot, the accounts each
 * holds, their tick lag, their lease moves in the last hour and their last errors.
 */
export default function SystemRoute() {
  const { t } = useTranslation('admin');
  const system = useSystem();
  return (
    <Page title={t('system.title')} intro={t('system.intro')} width="wide">
      <Card title={t('system.listTitle')} titleId="system-list">
        <QueryState query={system}>{(data) => <SystemView system={data} />}</QueryState>
        <div className={styles.below}>
          <Button
            size="sm"
            color="secondary"
            label={t('system.refresh')}
            disabled={system.isFetching}
            onClick={() => void system.refetch()}
          />
        </div>
      </Card>
    </Page>
  );
}
