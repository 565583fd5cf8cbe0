import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isPushServiceEndpoint, notificationPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** The service worker that shows pushed notices (apps/web/public/push-worker.js). */
const workerUrl = '/push-worker.js';
const pushStateKey = ['notifications', 'push'] as const;

/**
 * `ask`: the browser has not asked for the permission yet (Notification.permission 'default'),
 * so turning them on makes it ask; `blocked`: the permission is denied (by the user, or by the
 * browser's settings before any question), only the site settings can allow it; `off`:
 * allowed, but this browser is not subscribed (issue 39).
 */
export type PushState = 'unsupported' | 'blocked' | 'ask' | 'off' | 'on';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(workerUrl);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Whether this browser gets pushed notices; asks for nothing. */
async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (await currentSubscription()) return 'on';
  return Notification.permission === 'default' ? 'ask' : 'off';
}

export function usePushState() {
  return useQuery({ queryKey: pushStateKey, queryFn: pushState });
}

/**
 * Switches this browser's pushed notices on (the permission prompt appears now, after the
 * user's click, never before) or off; answers the new state.
 */
async function changePush(on: boolean): Promise<PushState> {
  if (!on) {
    const subscription = await currentSubscription();
    if (subscription) {
      await apiRequest(`/api/v1${notificationPaths.pushSubscriptions}`, {
        method: 'DELETE',
        body: { endpoint: subscription.endpoint },
      });
      await subscription.unsubscribe();
    }
    return 'off';
  }
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'ask';
  const { data } = await apiRequest<{ data: { publicKey: string } }>(
    `/api/v1${notificationPaths.pushKey}`,
  );
  await navigator.serviceWorker.register(workerUrl);
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: data.publicKey,
  });
  // The server takes only the browsers' push services (decision 115): another one would be
  // refused, so this browser is told push is not available here.
  if (!isPushServiceEndpoint(subscription.endpoint)) {
    await subscription.unsubscribe();
    return 'unsupported';
  }
  await apiRequest(`/api/v1${notificationPaths.pushSubscriptions}`, {
    method: 'POST',
    body: subscription.toJSON(),
  });
  return 'on';
}

export function useChangePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePush,
    onSuccess: (state) => {
      queryClient.setQueryData(pushStateKey, state);
    },
  });
}
