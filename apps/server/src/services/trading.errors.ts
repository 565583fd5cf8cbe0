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
