import { isRobotBitcoinSegment, promoBrokerId } from '@tradebot/contract/constants';
import { useParams } from 'react-router';
import { NotFoundPage } from '../../../components/not-found-page';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { translateObject, useTranslation } from '../../../lib/i18n';
import { servedPromoBroker } from '../../../lib/promo-broker';
import styles from '../promo.module.css';

/** /promo/robotbitcoin-{broker}: the Bitcoin robot landing page for a brokerage. */
export default function RobotBitcoinRoute() {
  const { t } = useTranslation('promo');
  const { campaign } = useParams();
  if (!isRobotBitcoinSegment(campaign)) return <NotFoundPage />;
  // Only a broker of the directory, named as the directory names it (docs/decisions/074).
  const broker = campaign === undefined ? null : (servedPromoBroker(campaign)?.name ?? null);
  if (broker === null && promoBrokerId(campaign) !== null) return <NotFoundPage />;
  const text = (key: string) =>
    broker ? t(`robotBitcoin.${key}`, { broker }) : t(`robotBitcoin.${key}Generic`);
  const points = translateObject<string[]>(t, 'robotBitcoin.points');

  return (
    <div className={styles.page}>
      <div className={styles.columns}>
        <section className={styles.hero} aria-labelledby="promo-title">
          <h1 id="promo-title">{text('title')}</h1>
          <p className={styles.lead}>{text('lead')}</p>
          <div className={styles.actions}>
            <Button to="/register" label={t('robotBitcoin.cta')} />
            <Button to="/searching-broker" color="secondary" label={t('robotBitcoin.secondary')} />
          </div>
        </section>
        <Card title={t('robotBitcoin.pointsTitle')} titleId="points-title">
          <ul className={styles.list}>
            {points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </Card>
      </div>
      <p className={styles.note}>{text('disclaimer')}</p>
      <p className={styles.risk}>{t('robotBitcoin.risk')}</p>
    </div>
  );
}
