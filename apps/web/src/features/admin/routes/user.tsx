import type { AdminUserDetail } from '@tradebot/contract';
import { categories } from '@tradebot/contract/constants';
import { useParams } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { Stat, StatGrid } from '../../../components/ui/stat';
import { formatDateTime, formatDay, formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useAdminUser, useGuaranteeRefund, useKillUserRobot } from '../api/users';
import { formatCurrencyCents } from '../format-currency';
import { MessageStatusBadge } from '../components/message-badges';
import { OperationsTable } from '../components/operations-table';
import { QueryState } from '../components/query-state';
import { UserStates } from '../components/yes-no';
import { adminPaths } from '../admin-paths';
import styles from '../admin.module.css';

/** One user as support sees them: who, where they came from, what they pay, what trades. */
export default function UserRoute() {
  const { id = '' } = useParams();
  const { t } = useTranslation('admin');
  const user = useAdminUser(id);
  const title = user.data ? `${user.data.user.name} ${user.data.user.last_name}` : t('user.title');
  return (
    <Page title={title} intro={user.data?.user.email} width="wide">
      <p>
        <AppLink to={adminPaths.users}>{t('user.back')}</AppLink>
      </p>
      <QueryState query={user}>{(data) => <UserDetail detail={data} />}</QueryState>
    </Page>
  );
}

function UserDetail({ detail }: { detail: AdminUserDetail }) {
  const { t, language } = useTranslation('admin');
  const { user, settings, robot, account } = detail;
  const kill = useKillUserRobot(user.id);
  const none = t('user.none');
  const enabled = categories.filter((category) => settings.categories_enabled[category]);

  return (
    <>
      <Card title={t('user.stateTitle')} titleId="user-state">
        <p>
          <UserStates authorized={user.authorized} linked={user.linked} botOn={robot.bot_on} />
        </p>
        <dl className={styles.facts}>
          <div>
            <dt>{t('user.subscription')}</dt>
            <dd>
              {detail.subscription
                ? [
                    detail.subscription.freeMonth
                      ? t('user.freeMonth')
                      : detail.subscription.plan && t(`user.plans.${detail.subscription.plan}`),
                    t(`user.subscriptionStatus.${detail.subscription.status}`),
                  ]
                    .filter(Boolean)
                    .join(' · ')
                : t('user.noSubscription')}
            </dd>
          </div>
          <div>
            <dt>{t('user.accessUntil')}</dt>
            <dd>
              {detail.subscription?.accessUntil
                ? formatDateTime(language, detail.subscription.accessUntil)
                : none}
            </dd>
          </div>
          <div>
            <dt>{t('user.robot')}</dt>
            <dd>
              {robot.trading
                ? t('user.trading')
                : t(`user.idle.${robot.idleReason ?? 'ROBOT_OFF'}`)}
            </dd>
          </div>
          {/* Only in the scaled set-up: which robot process trades the account (decision 092). */}
          {robot.holder !== undefined && (
            <div>
              <dt>{t('user.holder')}</dt>
              <dd>
                {robot.holder
                  ? t('user.holderSince', {
                      process: robot.holder.process,
                      since: formatDateTime(language, robot.holder.since),
                    })
                  : t('user.noHolder')}
              </dd>
            </div>
          )}
          <div>
            <dt>{t('user.risk')}</dt>
            <dd>{settings.risk}</dd>
          </div>
          <div>
            <dt>{t('user.categories')}</dt>
            <dd>
              {enabled.length === 0
                ? none
                : enabled.map((category) => t(`categories.${category}`)).join(', ')}
            </dd>
          </div>
          <div>
            <dt>{t('user.platformLogin')}</dt>
            <dd>{settings.login_tradear ? t('yes') : t('no')}</dd>
          </div>
        </dl>
      </Card>
      {account && (
        <Card title={t('user.accountTitle')} titleId="user-account">
          <StatGrid>
            {(['balance', 'equity', 'freeMargin', 'deposits'] as const).map((figure) => (
              <Stat
                key={figure}
                label={t(`user.${figure}`)}
                value={formatMoney(language, account[figure], detail.accountCurrency)}
              />
            ))}
          </StatGrid>
        </Card>
      )}
      <GuaranteeCard detail={detail} />
      <Card title={t('user.killTitle')} titleId="user-kill" tone="danger">
        <p className={styles.muted}>{t('user.killText')}</p>
        {kill.isSuccess && (
          <Notice tone="success" title={t('user.killed', { count: kill.data.closed })} />
        )}
        {kill.isError && <Notice tone="error" title={kill.error.message} />}
        {/* What the server would refuse, or a press that would change nothing, is said instead. */}
        {!user.authorized || !user.linked ? (
          <p>{t('user.killNotTrading')}</p>
        ) : !robot.bot_on && detail.openOperations.length === 0 ? (
          <p>{t('user.killNothing')}</p>
        ) : (
          <ConfirmDialog
            tone="danger"
            trigger={
              <Button color="danger" label={t('user.killButton')} loading={kill.isPending} />
            }
            title={t('user.killConfirmTitle', { name: `${user.name} ${user.last_name}` })}
            description={t('user.killConfirmText')}
            confirmLabel={t('user.killConfirm')}
            cancelLabel={t('cancel')}
            onConfirm={() => {
              kill.mutate();
            }}
          />
        )}
      </Card>
      <Card title={t('user.openTitle')} titleId="user-open">
        <OperationsTable
          caption={t('user.openTitle')}
          rows={detail.openOperations}
          empty={t('user.noOpen')}
        />
      </Card>
      <Card title={t('user.closedTitle')} titleId="user-closed">
        <OperationsTable
          caption={t('user.closedTitle')}
          rows={detail.recentClosed}
          empty={t('user.noClosed')}
        />
      </Card>
      <Card title={t('user.profileTitle')} titleId="user-profile">
        <dl className={styles.facts}>
          <div>
            <dt>{t('users.email')}</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>{t('user.phone')}</dt>
            <dd>{user.phone ?? none}</dd>
          </div>
          <div>
            <dt>{t('message.language')}</dt>
            <dd>
              {user.language === 'pt' || user.language === 'es'
                ? t(`languages.${user.language}`)
                : user.language}
            </dd>
          </div>
          <div>
            <dt>{t('users.registered')}</dt>
            <dd>{formatDateTime(language, user.createdAt)}</dd>
          </div>
          <div>
            <dt>{t('user.newsletter')}</dt>
            <dd>{user.subscribed_newsletter ? t('yes') : t('no')}</dd>
          </div>
          <div>
            <dt>partner_id</dt>
            <dd>{user.partner_id ?? none}</dd>
          </div>
          <div>
            <dt>client_source</dt>
            <dd>{user.client_source ?? none}</dd>
          </div>
          <div>
            <dt>{t('user.promocode')}</dt>
            <dd>{user.promocode ?? none}</dd>
          </div>
          <div>
            <dt>{t('user.referral')}</dt>
            <dd className={styles.code}>{user.referral ?? none}</dd>
          </div>
        </dl>
      </Card>
      <Card title={t('user.messagesTitle')} titleId="user-messages">
        {detail.messages.length === 0 ? (
          <p className={styles.muted}>{t('user.noMessages')}</p>
        ) : (
          <ul className={styles.thread}>
            {detail.messages.map((message) => (
              <li key={message.id}>
                <MessageStatusBadge message={message} />{' '}
                <AppLink to={`${adminPaths.inbox}/${message.id}`}>{message.subject}</AppLink>{' '}
                <span className={styles.muted}>{formatDateTime(language, message.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

/** The 30-day money guarantee (decision 048): whether it applies, and the refund that honours it. */
function GuaranteeCard({ detail }: { detail: AdminUserDetail }) {
  const { t, language } = useTranslation('admin');
  const { user, guarantee, firstPayment } = detail;
  const refund = useGuaranteeRefund(user.id);
  const until = guarantee.until ? formatDay(language, guarantee.until) : '';
  const amount =
    firstPayment && formatCurrencyCents(language, firstPayment.amountCents, firstPayment.currency);
  return (
    <Card title={t('user.guaranteeTitle')} titleId="user-guarantee">
      {refund.isSuccess && <Notice tone="success" title={t('user.guaranteeDone')} />}
      {refund.isError && <Notice tone="error" title={refund.error.message} />}
      {guarantee.eligible ? (
        <>
          <p className={styles.muted}>
            {t('user.guaranteeEligible', { date: until, amount: amount ?? '' })}
          </p>
          <div className={styles.actions}>
            <ConfirmDialog
              tone="danger"
              trigger={
                <Button
                  color="danger"
                  label={t('user.guaranteeButton')}
                  loading={refund.isPending}
                />
              }
              title={t('user.guaranteeConfirmTitle', { name: `${user.name} ${user.last_name}` })}
              description={t('user.guaranteeConfirmText', { amount: amount ?? '' })}
              confirmLabel={t('user.guaranteeConfirm')}
              cancelLabel={t('cancel')}
              onConfirm={() => {
                refund.mutate();
              }}
            />
          </div>
        </>
      ) : (
        <p className={styles.muted}>
          {t(`user.guaranteeNot.${guarantee.reason ?? 'no_payment'}`, {
            date: until,
            refundedAt: firstPayment?.refundedAt
              ? formatDay(language, firstPayment.refundedAt)
              : '',
          })}
        </p>
      )}
    </Card>
  );
}
