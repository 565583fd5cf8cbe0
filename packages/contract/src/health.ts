import { z } from './zod';
import { dataEnvelope } from './envelope';

export const healthResponseSchema = dataEnvelope(
  z.object({ status: z.literal('ok'), uptimeSeconds: z.number() }),
);
export const readyResponseSchema = dataEnvelope(
  z.object({ status: z.literal('ready'), database: z.literal('up') }),
);
