import { z } from './zod';
import { languageSchema } from './common-schemas';
import { isPushServiceEndpoint } from './push-services';
import { dataEnvelope } from './envelope';
import { text } from './text';

/**
 * Notifications (issue 22; docs/decisions/088-notifications-outbox-e-mail-and-settings.md): what
 * the user hears about their account without opening the app, by e-mail, and which events they
 * want. Paths in `notificationPaths` (api-paths.ts).
 */

/** Each event a user may switch on or off (decision 088). */
export const notificationEvents = [
  /** Every operation opened or closed, gathered into at most one e-mail a minute. */
  'operations',
  /** An operation closed at its stop-loss. */
  'stop_loss',
  /** The robot stopped: daily loss limit, kill switch, access ended, platform disconnected. */
  'robot_stopped',
  /** The margin level fell below 100 % (the platform closes operations at 50 %). */
  'margin_warning',
  /** The day's figures, at 20:00 in the user's time zone. */
  'daily_summary',
] as const;
export type NotificationEvent = (typeof notificationEvents)[number];

/** Summary and robot-stopped on, every fill off (issue 22); the losses' warnings on. */
export const defaultNotificationSettings: Readonly<Record<NotificationEvent, boolean>> = {
  operations: false,
  stop_loss: true,
  robot_stopped: true,
  margin_warning: true,
  daily_summary: true,
};

/** The hour (local, 24 h) the daily summary is sent at. */
export const dailySummaryHour = 20;

/** Whether the runtime knows this IANA time zone (e.g. America/Sao_Paulo). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A user's IANA time zone, as their browser reports it. */
export const timeZoneSchema = text({ error: 'validation.invalidValue' })
  .trim()
  .min(1, { error: 'validation.invalidValue' })
  .max(64, { error: 'validation.invalidValue' })
  .refine(isTimeZone, { error: 'validation.invalidValue' });

const eventFlag = z.boolean({ error: 'validation.invalidValue' });

export const notificationSettingsSchema = z.object({
  operations: z.boolean(),
  stop_loss: z.boolean(),
  robot_stopped: z.boolean(),
  margin_warning: z.boolean(),
  daily_summary: z.boolean(),
  /** Where the daily summary's evening is; null until the browser told us (decision 088). */
  time_zone: z.string().nullable(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export const notificationSettingsResponseSchema = dataEnvelope(notificationSettingsSchema);

/** PUT: every flag; `time_zone` is the browser's, kept when absent. */
export const updateNotificationSettingsRequestSchema = z.object({
  operations: eventFlag,
  stop_loss: eventFlag,
  robot_stopped: eventFlag,
  margin_warning: eventFlag,
  daily_summary: eventFlag,
  time_zone: timeZoneSchema.optional(),
  language: languageSchema.optional(),
});
export type UpdateNotificationSettingsRequest = z.input<
  typeof updateNotificationSettingsRequestSchema
>;

export const pushKeyResponseSchema = dataEnvelope(z.object({ publicKey: z.string() }));

const base64url = text({ error: 'validation.invalidValue' })
  .min(1, { error: 'validation.invalidValue' })
  .max(200, { error: 'validation.invalidValue' })
  .regex(/^[\w-]+=*$/, { error: 'validation.invalidValue' });

/** The push service's address for one browser: the server POSTs there, so https only. */
const pushEndpoint = z
  .url({ protocol: /^https$/, error: 'validation.invalidValue' })
  .max(2000, { error: 'validation.invalidValue' });

/**
 * A browser's push subscription, its endpoint one that `accepts` (the server's own rule: the
 * push services, and in its tests a local one; decision 115).
 */
export function pushSubscriptionRequestSchemaAccepting(accepts: (endpoint: string) => boolean) {
  return z.object({
    endpoint: pushEndpoint.refine(accepts, { error: 'validation.pushService' }),
    keys: z.object({ p256dh: base64url, auth: base64url }),
    language: languageSchema.optional(),
  });
}

/** A browser's push subscription, as PushSubscription.toJSON() gives it, to a push service. */
export const pushSubscriptionRequestSchema =
  pushSubscriptionRequestSchemaAccepting(isPushServiceEndpoint);
export type PushSubscriptionRequest = z.input<typeof pushSubscriptionRequestSchema>;

export const removePushSubscriptionRequestSchema = z.object({
  endpoint: pushEndpoint,
  language: languageSchema.optional(),
});
export const pushSubscriptionResponseSchema = dataEnvelope(z.object({ subscribed: z.boolean() }));
