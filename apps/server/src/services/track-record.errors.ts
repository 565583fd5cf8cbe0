import { DomainError } from '../domain/errors';

/** The `before` cursor of a page of the public track record is not one we wrote. */
export class TrackRecordCursorInvalid extends DomainError {
  constructor() {
    super('validation.invalidValue', { field: 'before' });
  }
}
