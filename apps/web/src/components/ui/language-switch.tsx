import { languages } from '@tradebot/contract/constants';
import { changeLanguage, useTranslation } from '../../lib/i18n';
import { VisuallyHidden } from './visually-hidden';
import styles from './language-switch.module.css';

/** Switches between es and pt; the choice persists (spec §4 Language). */
export function LanguageSwitch() {
  const { t, language: current } = useTranslation();
  return (
    <div className={styles.switch} role="group" aria-label={t('language.label')}>
      {languages.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className={styles.option}
          aria-pressed={current === language}
          onClick={() => void changeLanguage(language)}
        >
          {t(`language.short.${language}`)}
          <VisuallyHidden> {t(`language.name.${language}`)}</VisuallyHidden>
        </button>
      ))}
    </div>
  );
}
