import { z } from './zod';

/** Every successful answer is `{ "data": ... }` (ARCHITECTURE.md, Contract). */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
