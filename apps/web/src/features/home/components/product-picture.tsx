import { useTranslation } from '../../../lib/i18n';
import styles from './product-picture.module.css';

/**
 * The dashboard as it is, captured from the running app with the demo account
 * (`npm run screenshots:home`): a phone's view up to 40rem, the desktop's above. It sits below
 * the fold and loads lazily, so it is never the page's largest paint.
 */
export function ProductPicture() {
  const { t, language } = useTranslation('home');
  const file = (width: number) => `/images/home/dashboard-${String(width)}.${language}.webp`;
  return (
    <figure className={styles.figure}>
      <picture>
        <source
          media="(min-width: 40rem)"
          type="image/webp"
          srcSet={file(1280)}
          width={1280}
          height={800}
        />
        <img
          className={styles.image}
          src={file(360)}
          srcSet={`${file(360)} 1x, ${file(720)} 2x`}
          width={360}
          height={640}
          alt={t('product.alt')}
          loading="lazy"
          decoding="async"
        />
      </picture>
      <figcaption className={styles.caption}>{t('product.caption')}</figcaption>
    </figure>
  );
}
