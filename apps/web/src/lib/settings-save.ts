import type { Category, RobotSettingsView, SettingsRequest } from '@tradebot/contract';

/** One change a control makes. */
export type SettingsChange =
  | { kind: 'bot_on'; value: boolean }
  | { kind: 'risk'; value: number }
  | { kind: 'category'; category: Category | 'all'; value: boolean };

export function applyChange(
  settings: RobotSettingsView,
  change: SettingsChange,
): RobotSettingsView {
  switch (change.kind) {
    case 'bot_on':
      return { ...settings, bot_on: change.value };
    case 'risk':
      return { ...settings, risk: change.value };
    case 'category':
      return {
        ...settings,
        categories_enabled: { ...settings.categories_enabled, [change.category]: change.value },
      };
  }
}

/** The body spec §7 asks for: categories_enabled as a JSON-encoded string of the flags. */
export function settingsRequest(settings: RobotSettingsView): SettingsRequest {
  return {
    bot_on: settings.bot_on,
    risk: settings.risk,
    categories_enabled: JSON.stringify(settings.categories_enabled),
  };
}

export type SaveOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Saves at once and shows the new value while it saves (spec §4: saving is triggered by
 * changes). What the server answers is shown after; when the save fails, the previous value
 * comes back, so the screen never claims a setting the robot does not have
 * (docs/decisions/044).
 */
export async function saveWithRollback<T>(
  previous: T,
  next: T,
  save: (next: T) => Promise<T>,
  show: (value: T) => void,
): Promise<SaveOutcome<T>> {
  show(next);
  try {
    const value = await save(next);
    show(value);
    return { ok: true, value };
  } catch (error) {
    show(previous);
    return { ok: false, error };
  }
}
