import { describe, expect, it } from 'vitest';
import { recoveryCodeMail } from '../services/mail-templates';
import { supportReplyMail } from '../services/support-mail-templates';
import { mailText, renderMail, type Block } from './layout';

const script = '<script>alert(1)</script>';

describe('the mail layout', () => {
  it('escapes what a user typed in the HTML part and keeps it as typed in the text part', async () => {
    const mail = await supportReplyMail({
      language: 'es',
      to: 'a@b.test',
      name: `Ana ${script}`,
      subject: `Hola ${script}`,
      reply: 'Ya está.',
      original: `Mi mensaje ${script}\n"comillas" & 'apóstrofos'`,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Hola, Ana &lt;script&gt;alert(1)&lt;/script&gt;:');
    expect(mail.html).toContain('Mi mensaje &lt;script&gt;alert(1)&lt;/script&gt;<br/>');
    expect(mail.html).toContain('&amp;');
    expect(mail.subject).toBe(`Re: Hola ${script}`);
    expect(mail.text).toContain(`Hola, Ana ${script}:`);
    expect(mail.text).toContain(`> Mi mensaje ${script}\n> "comillas" & 'apóstrofos'`);
  });

  it('escapes a link and its label', async () => {
    const mail = await renderMail({
      language: 'pt',
      to: 'a@b.test',
      subject: 's',
      blocks: [{ button: '<b>label</b>', href: 'https://t.test/?a=1&b="2"' }],
    });
    expect(mail.html).toContain('href="https://t.test/?a=1&amp;b=&quot;2&quot;"');
    expect(mail.html).toContain('&lt;b&gt;label&lt;/b&gt;');
    expect(mail.html).toContain('lang="pt"');
  });

  it('writes the text part from the same blocks as the HTML', async () => {
    const blocks: Block[] = [
      { p: 'Uno' },
      { code: '123456' },
      { button: 'Entrar', href: 'https://t.test/login' },
      { link: 'https://t.test/recover' },
      { table: [['Plan', 'USD 10']] },
      { quote: 'Línea 1\nLínea 2', heading: 'Tu mensaje:' },
    ];
    expect(mailText(blocks)).toBe(
      [
        'Uno',
        '    123456',
        'Entrar:\nhttps://t.test/login',
        'https://t.test/recover',
        '  Plan: USD 10',
        'Tu mensaje:\n\nLínea 1\nLínea 2',
      ].join('\n\n'),
    );
    const { html } = await renderMail({ language: 'es', to: 'a@b.test', subject: 's', blocks });
    for (const words of [
      'Uno',
      '123456',
      'Entrar',
      'https://t.test/recover',
      'USD 10',
      'Línea 2',
    ]) {
      expect(html).toContain(words);
    }
  });

  it('sets the recovery code apart, in both parts', async () => {
    const mail = await recoveryCodeMail('pt', 'a@b.test', 'Ana', '042042', 15);
    expect(mail.text).toMatch(/^ {4}042042$/m);
    expect(mail.html).toMatch(/<p style="[^"]*letter-spacing:6px[^"]*">042042<\/p>/);
  });
});
