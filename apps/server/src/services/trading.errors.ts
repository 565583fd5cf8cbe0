import { DomainError } from '../domain/errors';

/** The `before` cursor of a page of history is not one we wrote. */
export class TradingCursorInvalid extends DomainError {
  constructor() {
    super('validation.invalidValue', { field: 'before' });
  }
}

/** The user has access but has not linked their trading platform account yet. */
export class TradingNotLinked extends DomainError {
  constructor() {
    super('trading.notLinked');
  }
}

/** Neither linked nor with access (no plan): nothing to trade on. */
export class TradingNotAuthorized extends DomainError {
  constructor() {
    super('trading.notAuthorized');
  }
}

/** Switching the robot on after access ended (decision 063): it may only stay off. */
export class RobotOnWithoutAccess extends DomainError {
  constructor() {
    super('trading.accessEndedRobotOn');
  }
}

/** The operation is not one of the user's (or does not exist): 404, nothing said about others. */
export class OperationNotFound extends DomainError {
  constructor() {
    super('trading.operationNotFound');
  }
}

/** The operation had already closed (its take-profit, stop-loss, the kill switch…): nothing to do. */
export class OperationAlreadyClosed extends DomainError {
  constructor() {
    super('trading.operationAlreadyClosed');
  }
}

/**
 * The robot trading the account did not close it: it does not answer, or it does not hold that
 * position (decision 152). The operation stays open; the user may retry.
 */
export class OperationCloseUnavailable extends DomainError {
  constructor() {
    super('trading.operationCloseUnavailable');
  }
}

/** The platform was asked to close it and has not confirmed yet (a broker answering slowly). */
export class OperationCloseUnconfirmed extends DomainError {
  constructor() {
    super('trading.operationCloseUnconfirmed');
  }
}
