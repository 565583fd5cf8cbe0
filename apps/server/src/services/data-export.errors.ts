import { DomainError } from '../domain/errors';

/** The user was deleted while the export was asked for: nothing to export (404). */
export class DataExportUserGone extends DomainError {
  constructor() {
    super(undefined);
  }
}
