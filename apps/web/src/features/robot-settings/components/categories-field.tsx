import { categories, type Category, type RobotSettingsView } from '@tradebot/contract';
import { SwitchField } from '../../../components/ui/switch';
import { useTranslation } from '../../../lib/i18n';
import styles from './profile-config.module.css';

/**
 * The five categories plus `all`. With `all` on every market trades whatever its own flag
 * says (decision 020), so those switches show on and wait; each keeps its own value for when
 * `all` goes off.
 */
export function CategoriesField({
  enabled,
  onChange,
  disabled = false,
  busy,
}: {
  enabled: RobotSettingsView['categories_enabled'];
  onChange: (category: Category | 'all', value: boolean) => void;
  disabled?: boolean;
  busy: boolean;
}) {
  const { t } = useTranslation('robot-settings');
  return (
    <div className={styles.switches}>
      <SwitchField
        label={t('categories.all')}
        description={t('categories.allHint')}
        checked={enabled.all}
        onCheckedChange={(value) => {
          onChange('all', value);
        }}
        disabled={disabled}
        busy={busy}
      />
      {categories.map((category) => (
        <SwitchField
          key={category}
          label={t(`categories.names.${category}`)}
          {...(enabled.all ? { description: t('categories.includedInAll') } : {})}
          checked={enabled.all || enabled[category]}
          onCheckedChange={(value) => {
            onChange(category, value);
          }}
          disabled={disabled || enabled.all}
          busy={busy}
        />
      ))}
    </div>
  );
}
