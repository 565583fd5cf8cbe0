import { describe, expect, it } from 'vitest';
import { afterLoginPath, loginReturningTo, safeReturnPath } from './return-path';

describe('returning to the page that sent the user to login', () => {
  it('carries the page, with its query, through /login', () => {
    expect(loginReturningTo('/contact')).toBe('/login?redirect=%2Fcontact');
    const login = new URL(loginReturningTo('/payment?checkout=canceled'), 'http://x');
    expect(afterLoginPath(login.searchParams)).toBe('/payment?checkout=canceled');
  });

  it('goes to the dashboard without a page to return to', () => {
    expect(afterLoginPath(new URLSearchParams())).toBe('/dashboard');
    expect(loginReturningTo('/')).toBe('/login');
  });

  it.each([
    'https://evil.example/x',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    'contact',
    '/login',
    '/register?promocode=X',
    '/set-password',
    `/${'a'.repeat(600)}`,
  ])('refuses %s as a place to return to', (candidate) => {
    expect(safeReturnPath(candidate)).toBeNull();
    expect(afterLoginPath(new URLSearchParams({ redirect: candidate }))).toBe('/dashboard');
  });
});
