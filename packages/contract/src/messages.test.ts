import { describe, expect, it } from 'vitest';
import { messageCatalogue, translate } from './messages';

describe('message catalogue', () => {
  it('has the same keys, all non-empty, in es and pt', () => {
    const esKeys = Object.keys(messageCatalogue.es).sort();
    expect(Object.keys(messageCatalogue.pt).sort()).toEqual(esKeys);
    for (const language of ['es', 'pt'] as const) {
      for (const text of Object.values(messageCatalogue[language]))
        expect(text.trim()).not.toBe('');
    }
  });

  it('keeps the spec wording in Spanish verbatim', () => {
    expect(translate('es', 'validation.email')).toBe('Correo electrónico inválido');
    expect(translate('es', 'validation.latinLetters')).toBe('Solo se permiten letras latinas');
    expect(translate('es', 'validation.promocodeInvalid')).toBe(
      'El código promocional es inválido',
    );
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('es', 'validation.min', { count: 8 })).toBe('Mínimo 8 caracteres');
    expect(translate('pt', 'validation.max', { count: 50 })).toBe('Máximo de 50 caracteres');
    expect(translate('es', 'validation.min')).toBe('Mínimo {{count}} caracteres');
  });
});
