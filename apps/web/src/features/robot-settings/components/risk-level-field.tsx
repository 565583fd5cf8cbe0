import { riskLevelBounds } from '@tradebot/contract';
import { RadioCardGroup } from '../../../components/ui/radio-card-group';
import { useTranslation } from '../../../lib/i18n';

const levels = Array.from({ length: riskLevelBounds.max - riskLevelBounds.min + 1 }, (_, index) =>
  String(riskLevelBounds.min + index),
);

/** Risk 1..5, each in plain words (docs/decisions/020-robot-risk-levels.md). */
export function RiskLevelField({
  value,
  onChange,
  disabled = false,
  busy,
}: {
  value: number;
  onChange: (level: number) => void;
  disabled?: boolean;
  busy: boolean;
}) {
  const { t } = useTranslation('robot-settings');
  return (
    <RadioCardGroup
      label={t('risk.label')}
      value={String(value)}
      onValueChange={(level) => {
        onChange(Number(level));
      }}
      disabled={disabled}
      busy={busy}
      options={levels.map((level) => ({
        value: level,
        label: t('risk.level', { level }),
        description: t(`risk.levels.${level}`),
      }))}
    />
  );
}
