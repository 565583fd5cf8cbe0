import { describe, expect, it } from 'vitest';
import { basenameOf, localizedPath, splitLanguagePath } from './language-url';

describe('language addresses (docs/decisions/053)', () => {
  it.each([
    ['/', null, '/'],
    ['/login', null, '/login'],
    ['/pt', 'pt', '/'],
    ['/pt/', 'pt', '/'],
    ['/pt/how-it-works/2', 'pt', '/how-it-works/2'],
    ['/ptx/login', null, '/ptx/login'],
    ['/promo/pt', null, '/promo/pt'],
  ])('%s is %s at %s', (pathname, language, path) => {
    expect(splitLanguagePath(pathname)).toEqual({ language, path });
  });

  it('puts an in-app path at its language address, and back', () => {
    expect(localizedPath('es', '/login')).toBe('/login');
    expect(localizedPath('pt', '/login')).toBe('/pt/login');
    expect(localizedPath('pt', '/')).toBe('/pt');
    expect(splitLanguagePath(localizedPath('pt', '/dashboard')).path).toBe('/dashboard');
    expect(basenameOf('es')).toBeUndefined();
    expect(basenameOf('pt')).toBe('/pt');
  });
});
