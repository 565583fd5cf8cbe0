// Web push (docs/decisions/088): shows the notice the server pushed, in the account's
// language as the server wrote it; a click opens the page it points to.
self.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = {};
  }
  event.waitUntil(
    self.registration.showNotification(notice.title || 'Tradebot', {
      body: notice.body || '',
      icon: '/favicon.svg',
      data: { url: notice.url || '/dashboard' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data?.url || '/dashboard'));
});
