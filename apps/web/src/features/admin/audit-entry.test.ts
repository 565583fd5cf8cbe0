import type { AdminAuditEntry } from '@tradebot/contract';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import esAdmin from '../../locales/es/admin.json';
import ptAdmin from '../../locales/pt/admin.json';
import { auditEntryText } from './audit-entry';

const i18n = i18next.createInstance();
await i18n.init({
  resources: { es: { admin: esAdmin }, pt: { admin: ptAdmin } },
  lng: 'es',
  ns: ['admin'],
  interpolation: { escapeValue: false },
});
const translate = (language: 'es' | 'pt') => {
  const t = i18n.getFixedT(language, 'admin');
  return (key: string, options?: Record<string, string>) => t(key, options);
};

const admin = { id: 'a1', email: 'soporte@example.com', name: 'Sofía Soporte' };
const entry = (overrides: Partial<AdminAuditEntry>): AdminAuditEntry => ({
  id: 'e1',
  at: '2026-11-21T12:00:00.000Z',
  admin,
  action: 'admin.sign_in_failed',
  targetType: 'admin_sign_in',
  targetId: null,
  before: null,
  after: null,
  ...overrides,
});

describe("the audit log's rows (decision 079)", () => {
  it('says why a console sign-in failed and where it came from, in es and pt', () => {
    const failed = entry({ after: { reason: 'wrong_password', address: '203.0.113.7' } });
    expect(auditEntryText(failed, translate('es'))).toEqual({
      who: 'Sofía Soporte',
      whoDetail: 'soporte@example.com',
      what: 'Intento fallido de entrar en la consola: contraseña incorrecta',
      target: 'desde 203.0.113.7',
    });
    expect(auditEntryText(failed, translate('pt'))).toMatchObject({
      what: 'Tentativa malsucedida de entrar no console: senha incorreta',
      target: 'de 203.0.113.7',
    });
    for (const [reason, text] of [
      ['wrong_code', 'código de verificación incorrecto'],
      ['rate_limited', 'frenado por los límites de intentos'],
    ]) {
      expect(
        auditEntryText(entry({ after: { reason, address: '::1' } }), translate('es')).what,
      ).toBe(`Intento fallido de entrar en la consola: ${String(text)}`);
    }
  });

  it('shows an e-mail that is no admin’s by its digest only', () => {
    const unknown = entry({
      admin: null,
      after: { reason: 'unknown_email', address: '203.0.113.7', emailDigest: '0123456789abcdef' },
    });
    expect(auditEntryText(unknown, translate('es'))).toEqual({
      who: 'Correo que no es de ningún administrador',
      whoDetail: 'huella del correo: 0123456789abcdef',
      what: 'Intento fallido de entrar en la consola: correo desconocido',
      target: 'desde 203.0.113.7',
    });
    expect(auditEntryText(unknown, translate('pt')).who).toBe(
      'E-mail que não é de nenhum administrador',
    );
  });

  it('keeps the other actions as they were', () => {
    const killed = entry({ action: 'robot.killed', targetType: 'user', targetId: 'u1' });
    expect(auditEntryText(killed, translate('es'))).toEqual({
      who: 'Sofía Soporte',
      whoDetail: 'soporte@example.com',
      what: 'Detuvo el robot de un usuario',
      target: 'user u1',
    });
  });
});

describe("a user's own download of their data in the audit log (decision 153)", () => {
  it('names the user as who, in es and pt', () => {
    const exported = entry({
      admin: null,
      action: 'user.data_exported',
      targetType: 'user',
      targetId: 'u1',
      after: { bytes: 1200, counts: { operations: 3 } },
    });
    expect(auditEntryText(exported, translate('es'))).toEqual({
      who: 'El propio usuario',
      whoDetail: null,
      what: 'El usuario descargó sus datos (LGPD)',
      target: 'user u1',
    });
    expect(auditEntryText(exported, translate('pt')).who).toBe('O próprio usuário');
  });
});
