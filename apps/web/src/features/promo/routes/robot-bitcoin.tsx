import { AppLink } from '../../../components/ui/app-link';
import { useParams } from 'react-router';
import { translateObject, useTranslation } from '../../../lib/i18n';
import { NotFoundPage } from '../../../components/not-found-page';
import { brokerNameFromSegment, isRobotBitcoinSegment } from '@tradebot/contract/constants';

/** /promo/robotbitcoin-{broker}: the Bitcoin robot landing page for a brokerage. */
export default function RobotBitcoinRoute() {
  const { t } = useTranslation('promo');
  const { campaign } = useParams();
  if (!isRobotBitcoinSegment(campaign)) return <NotFoundPage />;
  const broker = brokerNameFromSegment(campaign);
  const text = (key: string) =>
    broker ? t(`robotBitcoin.${key}`, { broker }) : t(`robotBitcoin.${key}Generic`);
  const points = translateObject<string[]>(t, 'robotBitcoin.points');

  return (
    <div className="landing">
      <section className="hero" aria-labelledby="promo-title">
        <h1 id="promo-title">{text('title')}</h1>
        <p className="hero__lead">{text('lead')}</p>
        <div className="hero__actions">
          <AppLink className="button button--primary button--md" to="/register">
            {t('robotBitcoin.cta')}
          </AppLink>
          <AppLink className="button button--secondary button--md" to="/searching-broker">
            {t('robotBitcoin.secondary')}
          </AppLink>
        </div>
      </section>
      <section aria-labelledby="points-title">
        <h2 id="points-title">{t('robotBitcoin.pointsTitle')}</h2>
        <ul className="rule-list">
          {points.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      </section>
      <p className="muted">{text('disclaimer')}</p>
      <p className="risk-warning">{t('robotBitcoin.risk')}</p>
    </div>
  );
}
