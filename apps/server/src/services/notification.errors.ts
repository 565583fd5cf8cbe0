import { DomainError } from '../domain/errors';

/** Web push is not set up on this server (no VAPID keys): there is no key to give nor send to. */
export class PushUnavailable extends DomainError {
  constructor() {
    super(undefined);
  }
}
