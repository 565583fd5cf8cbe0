import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installMemoryStorage } from '../../test/memory-storage';
import { dropSignInToken, heldSignInToken, takeSignInToken } from './sign-in-link';

describe('the sign-in link of an alert e-mail (decision 130)', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(() => {
    restore();
  });

  it('moves the token from the address to this tab, keeping the rest of the query', () => {
    const rest = takeSignInToken(new URLSearchParams('sign_in_token=abc-123_x&next=%2Fbilling'));
    expect(rest?.toString()).toBe('next=%2Fbilling');
    expect(heldSignInToken()).toBe('abc-123_x');
    expect(globalThis.sessionStorage.getItem('tradebot.signInToken')).toBe('abc-123_x');
    expect(globalThis.localStorage.length).toBe(0);
  });

  it('leaves a query without a token alone, and forgets a token once dropped', () => {
    expect(takeSignInToken(new URLSearchParams('next=%2Fbilling'))).toBeUndefined();
    expect(heldSignInToken()).toBeUndefined();
    takeSignInToken(new URLSearchParams('sign_in_token=abc'));
    dropSignInToken();
    expect(heldSignInToken()).toBeUndefined();
  });
});
