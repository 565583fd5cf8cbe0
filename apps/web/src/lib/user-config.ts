import type { UserConfig } from '@tradebot/contract';
import { categories } from '@tradebot/contract/constants';

/** A truthy value as the server may send it: true, 1, "1", "true". */
function asBoolean(value: unknown): boolean {
  if (typeof value === 'string') return value === '1' || value.toLowerCase() === 'true';
  return value === true || value === 1;
}

function asRecord(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return asRecord(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/**
 * The user config as the guards and screens use it (spec §3): categories coerced to
 * booleans when loaded, risk a number (default 1), flags booleans. Tolerant on purpose:
 * a malformed answer yields a config that opens nothing rather than a crash.
 */
export function normalizeUserConfig(raw: unknown): UserConfig {
  const config = asRecord(raw);
  const user = asRecord(config.user);
  const settings = asRecord(config.settings);
  const enabled = asRecord(settings.categories_enabled);
  const risk = Number(settings.risk);
  const categoriesEnabled = Object.fromEntries(
    categories.map((category) => [category, asBoolean(enabled[category])]),
  ) as Record<(typeof categories)[number], boolean>;
  return {
    user: {
      id: asText(user.id),
      name: asText(user.name),
      last_name: asText(user.last_name),
      email: asText(user.email),
      subscribed_newsletter: asBoolean(user.subscribed_newsletter),
    },
    settings: {
      bot_on: asBoolean(settings.bot_on),
      risk: Number.isFinite(risk) && settings.risk !== null && settings.risk !== '' ? risk : 1,
      categories_enabled: { ...categoriesEnabled, all: asBoolean(enabled.all) },
    },
    linked: asBoolean(config.linked),
    login_tradear: asBoolean(config.login_tradear),
    authorized: asBoolean(config.authorized),
  };
}
