import { apiRequest } from '../lib/api-client';
import { endSession } from '../lib/end-session';

// Features end a session without the server's logout too (a deleted account): lib holds it.
export { endSession };

/** Tells the server (which revokes the token), then ends the session even if that failed. */
export async function logout(): Promise<void> {
  try {
    await apiRequest('/api/v1/logout', { method: 'POST' });
  } catch {
    // The local session ends regardless: a dead network must not keep anyone logged in.
  } finally {
    endSession();
  }
}
