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

export interface SerialSaver<T> {
  /** Shows the change at once; saves it now, or when the save in flight ends. */
  change(update: (current: T) => T): void;
  /** Whether a save is in flight. */
  saving(): boolean;
  /** What the server holds now, from elsewhere (the kill switch's answer). */
  reset(value: T): void;
}

/**
 * Saves one change at a time, the latest state winning (issue 39: arrow keys on the risk
 * radios moved the focus and the selection, but a change made while the first one was saving
 * was dropped, so the screen fell back to the first). A change made during a save is shown at
 * once and saved when that save ends, on top of what the server answered; the outcome is told
 * once for the whole run of changes. A failure shows again what the server last held
 * (decision 044: the screen never claims a setting the robot does not have).
 */
export function createSerialSaver<T>(options: {
  saved: T;
  save: (next: T) => Promise<T>;
  show: (value: T) => void;
  onOutcome: (outcome: SaveOutcome<T>) => void;
}): SerialSaver<T> {
  let saved = options.saved;
  let shown = saved;
  let inFlight = false;

  const flush = async () => {
    inFlight = true;
    for (;;) {
      const target = shown;
      try {
        saved = await options.save(target);
      } catch (error) {
        inFlight = false;
        shown = saved;
        options.show(saved);
        options.onOutcome({ ok: false, error });
        return;
      }
      if (shown === target) break;
    }
    inFlight = false;
    shown = saved;
    options.show(saved);
    options.onOutcome({ ok: true, value: saved });
  };

  return {
    change(update) {
      shown = update(shown);
      options.show(shown);
      if (!inFlight) void flush();
    },
    saving: () => inFlight,
    reset(value) {
      saved = value;
      shown = value;
      options.show(value);
    },
  };
}
