import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** spec §7 POST /api/v1/newsletter: toggles the subscription; answers the new state. */
export async function toggleNewsletter(): Promise<boolean> {
  const body = await apiRequest<{ data: { subscribed_newsletter: boolean } }>(
    '/api/v1/newsletter',
    { method: 'POST' },
  );
  return body.data.subscribed_newsletter;
}

export function useToggleNewsletter() {
  return useMutation({ mutationFn: toggleNewsletter });
}
