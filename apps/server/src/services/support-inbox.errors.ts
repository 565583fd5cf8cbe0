import { DomainError } from '../domain/errors';

/** No contact message with that id (or not one the console may see). */
export class SupportMessageNotFound extends DomainError {
  constructor() {
    super(undefined);
  }
}
