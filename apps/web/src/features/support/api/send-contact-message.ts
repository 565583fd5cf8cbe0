import { supportApiPaths, type ContactRequest, type ContactResponse } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1/contact (spec §2 Contact): stored, e-mailed to support, acknowledged. */
export async function sendContactMessage(input: ContactRequest): Promise<ContactResponse['data']> {
  const body = await apiRequest<ContactResponse>(`/api/v1${supportApiPaths.contact}`, {
    method: 'POST',
    body: input,
  });
  return body.data;
}
