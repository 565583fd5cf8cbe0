import { DomainError } from '../domain/errors';

/** No user with that id. */
export class AdminUserNotFound extends DomainError {
  constructor() {
    super(undefined);
  }
}

/** The user has no linked platform account: there is no robot of theirs to act on. */
export class UserNotTrading extends DomainError {
  constructor() {
    super('admin.userNotTrading');
  }
}

/** The guarantee cannot be honoured: the user never paid. */
export class GuaranteeNoPayment extends DomainError {
  constructor() {
    super('admin.guaranteeNoPayment');
  }
}

/** The guarantee cannot be honoured: its 30 days are over. */
export class GuaranteeExpired extends DomainError {
  constructor() {
    super('admin.guaranteeExpired');
  }
}

/** The guarantee cannot be honoured: the payment was already refunded. */
export class GuaranteeRefunded extends DomainError {
  constructor() {
    super('admin.guaranteeRefunded');
  }
}
