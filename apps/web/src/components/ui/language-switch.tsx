import { languages } from '@tradebot/contract/constants';
import { changeLanguage, useTranslation } from '../../lib/i18n';

/** Switches between es and pt; the choice persists (spec §4 Language). */
export function LanguageSwitch() {
  const { t, language: current } = useTranslation();
  return (
    <div className="language-switch" role="group" aria-label={t('language.label')}>
      {languages.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="language-switch__option"
          aria-pressed={current === language}
          onClick={() => void changeLanguage(language)}
        >
          {t(`language.short.${language}`)}
          <span className="visually-hidden"> {t(`language.name.${language}`)}</span>
        </button>
      ))}
    </div>
  );
}
