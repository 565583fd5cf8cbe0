import { languages, type Language } from '@tradebot/contract';
import { useTranslation } from 'react-i18next';

/** Switches between es and pt; the choice persists (spec §4 Language). */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.language as Language;
  return (
    <div className="language-switch" role="group" aria-label={t('language.label')}>
      {languages.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="language-switch__option"
          aria-pressed={current === language}
          onClick={() => void i18n.changeLanguage(language)}
        >
          {t(`language.short.${language}`)}
          <span className="visually-hidden"> {t(`language.name.${language}`)}</span>
        </button>
      ))}
    </div>
  );
}
