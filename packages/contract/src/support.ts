import { text } from './text';
import { z } from './zod';
import { languageSchema } from './common-schemas';
import { dataEnvelope } from './envelope';

/**
 * The contact form (spec §2 Contact: customer service plus comments and suggestions). Bounds
 * are ours (spec: "not shown"); see docs/decisions/056-contact-and-working-hours.md.
 */
export const contactKinds = ['customer_service', 'suggestion'] as const;
export type ContactKind = (typeof contactKinds)[number];

export const contactLimits = {
  subject: { min: 3, max: 150 },
  message: { min: 10, max: 5000 },
  reply: { max: 5000 },
} as const;

/** spec §1: support replies within 24 working hours. */
export const supportReplyWorkingHours = 24;

export const contactRequestSchema = z.object({
  kind: z.enum(contactKinds, { error: 'validation.required' }),
  subject: text({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .min(contactLimits.subject.min, { error: 'validation.min' })
    .max(contactLimits.subject.max, { error: 'validation.max' }),
  message: text({ error: 'validation.required', multiline: true })
    .trim()
    .min(1, { error: 'validation.required' })
    .min(contactLimits.message.min, { error: 'validation.min' })
    .max(contactLimits.message.max, { error: 'validation.max' }),
  language: languageSchema.optional(),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;

/** The stored message and when its reply falls due (ISO 8601, UTC). */
export const contactResponseSchema = dataEnvelope(
  z.object({ id: z.string(), dueAt: z.string(), replyWorkingHours: z.number().int() }),
);
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/** open: waiting for support; answered: support replied; closed: nothing more to do. */
export const contactStatuses = ['open', 'answered', 'closed'] as const;
export type ContactStatus = (typeof contactStatuses)[number];
