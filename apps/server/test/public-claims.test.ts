import fs from 'node:fs';
import path from 'node:path';
import { guaranteeDays, plans, refundWindowDays, type Language } from '@tradebot/contract';
import { exposureCap, riskLevels, riskProfile } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import { guaranteeWindow, selfRefundWindow } from '../src/services/billing-rules';
import { freeMonthPromotion } from '../src/services/email-subscription.service';

/**
 * The public texts' money claims against the code that keeps them (decision 072): change a
 * rule or a text alone and this fails. It reads the web app's catalogues as shipped.
 */
const localesDir = path.resolve(import.meta.dirname, '../../web/src/locales');
const languages: Language[] = ['es', 'pt'];

type Entry = readonly [key: string, text: string];

function flatten(value: unknown, prefix: string, into: Entry[]): Entry[] {
  if (typeof value === 'string') into.push([prefix, value]);
  else if (Array.isArray(value)) value.forEach((item, i) => flatten(item, `${prefix}.${i}`, into));
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) flatten(item, `${prefix}.${key}`, into);
  return into;
}

/** Every text of a language, keyed `namespace.path`; the console's (admin) is not public. */
function publicTexts(language: Language): Entry[] {
  const dir = path.join(localesDir, language);
  const entries: Entry[] = [];
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const namespace = file.replace(/\.json$/, '');
    if (namespace === 'admin') continue;
    flatten(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), namespace, entries);
  }
  return entries;
}

function text(language: Language, key: string): string {
  const found = publicTexts(language).find(([entryKey]) => entryKey === key);
  if (!found) throw new Error(`no text ${language}:${key}`);
  return found[1];
}

/** As the texts write a share: "12,5%" in both languages. */
const percent = (fraction: number, language: Language) =>
  `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(fraction * 100)}%`;

const dayMs = 86_400_000;
const words = {
  es: {
    days: (n: number) => `${n} días`,
    firstPayment: 'primer pago',
    prudent: 'más prudente',
    simulated: 'dinero simulado',
    unconditional: 'sin condiciones',
    builtIn: 'plataforma integrada',
    broker: /(de|en) un bróker|cuenta (de|del|en el) bróker|bróker vinculad/i,
    /** A text that says where the money is: kept by the broker, never received by Tradebot. */
    moneyClaim:
      /no recibe (tu dinero|depósitos)|no custodia|custodia tu dinero|dinero (queda|sigue)/i,
    accountCurrencyIsUsd: /moneda en que opera tu cuenta/i,
    grantStored: /clave de renovación[^]*sellada[^]*desvinculas/,
  },
  pt: {
    days: (n: number) => `${n} dias`,
    firstPayment: 'primeiro pagamento',
    prudent: 'mais prudente',
    simulated: 'dinheiro simulado',
    unconditional: 'sem condições',
    builtIn: 'plataforma integrada',
    broker: /(de|em) uma corretora|conta (de|da|na) corretora|corretora vinculada/i,
    moneyClaim:
      /não recebe (seu dinheiro|depósitos)|não guarda fundos|guarda o seu dinheiro|dinheiro (fica|continua)/i,
    accountCurrencyIsUsd: /moeda em que opera sua conta/i,
    grantStored: /chave de renovação[^]*selada[^]*desvincula/,
  },
} as const;

describe.each(languages)('public claims in %s', (language) => {
  const entries = publicTexts(language);
  const said = words[language];

  it('states the share per operation of every level wherever level 1’s share is claimed', () => {
    const levelOne = percent(riskProfile(1).marginFractionPerOperation, language);
    const claims = entries.filter(
      ([key, value]) =>
        !key.startsWith('robot-settings.risk.levels.') &&
        value.includes(levelOne) &&
        /capital/i.test(value),
    );
    // home (the rules' step), faq, legal, the Bitcoin promotion
    expect(claims.length).toBeGreaterThanOrEqual(4);
    for (const [key, value] of claims) {
      for (const level of riskLevels) {
        const share = percent(riskProfile(level).marginFractionPerOperation, language);
        expect(value, `${key} must state level ${level}'s ${share}`).toContain(share);
      }
      expect(value, key).toContain(percent(exposureCap, language));
    }
    // The home page's fact card: the value says level 1's share, its text the others'.
    expect(text(language, 'home.facts.0.value')).toBe(levelOne);
    for (const level of riskLevels.filter((level) => level > 1))
      expect(text(language, 'home.facts.0.text')).toContain(
        percent(riskProfile(level).marginFractionPerOperation, language),
      );
  });

  it('describes each level in the profile with its own shares', () => {
    for (const level of riskLevels) {
      const profile = riskProfile(level);
      const description = text(language, `robot-settings.risk.levels.${level}`);
      expect(description).toContain(percent(profile.marginFractionPerOperation, language));
      expect(description).toContain(percent(profile.dailyLossLimit, language));
    }
  });

  it('calls the published rules what the profile calls them: level 1, the most prudent', () => {
    expect(riskProfile(Number.NaN).level).toBe(1);
    expect(text(language, 'robot-settings.risk.levels.1')).toContain(said.prudent);
    expect(text(language, 'faq.items.5.a')).toContain(said.prudent);
    for (const [key, value] of entries)
      expect(value, key).not.toMatch(/riesgo medio|risco médio|medium risk/i);
  });

  it('says the yearly gift is simulated money deposited by us, not a broker’s credit', () => {
    const amount = `${String(plans.yearly.brokerGiftCents / 100)} USD`;
    const claims = entries.filter(([, value]) => value.includes(amount));
    expect(claims.length).toBeGreaterThanOrEqual(2); // faq, legal
    for (const [key, value] of claims) {
      expect(value, key).toContain(said.simulated);
      expect(value, key).not.toMatch(/asociado|parceira|verificad/i);
      // Decision 157: the built-in platform's, never a deposit at a linked broker account.
      expect(value, key).toContain(said.builtIn);
      expect(value, key).toMatch(said.broker);
    }
    expect(text(language, 'plans.gift')).toContain(said.simulated);
    expect(text(language, 'plans.gift')).toContain(said.builtIn);
    expect(text(language, 'billing.section.giftStatus.owed')).toContain(said.builtIn);
    expect(text(language, 'billing.payment.giftRule')).toMatch(/cTrader/);
    // The receipt of a yearly payment says it too (the server's mail catalogue).
    const mail = JSON.parse(
      fs.readFileSync(
        path.resolve(import.meta.dirname, `../src/i18n/${language}/mail.json`),
        'utf8',
      ),
    ) as { billing: { gift: string } };
    expect(mail.billing.gift).toContain(said.simulated);
    expect(mail.billing.gift).toContain(said.builtIn);
    expect(mail.billing.gift).toMatch(said.broker);
  });

  it('says where the money is in each mode wherever it says Tradebot does not take it (issue 39)', () => {
    // The built-in platform's money is simulated and Tradebot holds it; a linked broker account's
    // money stays at the broker. A text about one mode names it and says what the other does.
    const claims = entries.filter(([, value]) => said.moneyClaim.test(value));
    const keys = claims.map(([key]) => key);
    for (const key of [
      'home.features.broker.text',
      'faq.items.1.a',
      'legal.terms.sections.0.paragraphs.1',
      'promo.robotBitcoin.points.2',
      'broker.lead',
    ])
      expect(keys, key).toContain(key);
    for (const [key, value] of claims) {
      expect(value, `${key} names the linked broker`).toMatch(said.broker);
      expect(value, `${key} says what the built-in platform does`).toContain(said.builtIn);
      expect(value, `${key} says its money is simulated`).toContain(said.simulated);
    }
  });

  it('tells of the stored cTrader grant, and that unlinking does not revoke it at cTrader (issue 39)', () => {
    // Where the unlink screen sends the user to revoke the grant (cTrader has no revoke call,
    // decision 091): the terms and the privacy policy must send them to the same place.
    const revokeAt = /cTrader ID \([^)]*\)/.exec(
      text(language, 'account-settings.unlink.ctrader'),
    )?.[0];
    expect(revokeAt).toBeDefined();
    const terms = text(language, 'legal.terms.sections.6.paragraphs.0');
    expect(terms).toContain(revokeAt);
    const privacy = entries
      .filter(([key]) => key.startsWith('legal.privacy.'))
      .map(([, value]) => value)
      .join('\n');
    expect(privacy).toContain(revokeAt);
    // What is stored, sealed, why and how it goes: OAuth's access and refresh keys.
    expect(privacy).toMatch(/OAuth/);
    expect(privacy).toMatch(said.grantStored);
  });

  it('gives the 30-day guarantee one rule: the first payment back, whatever the results', () => {
    const paidAt = Date.UTC(2026, 0, 1);
    const payment = { paidAt, refundedAt: null };
    expect(guaranteeWindow(payment, paidAt + (guaranteeDays - 1) * dayMs).eligible).toBe(true);
    expect(guaranteeWindow(payment, paidAt + guaranteeDays * dayMs).eligible).toBe(false);
    for (const key of ['legal.terms.sections.5.paragraphs.1', 'faq.items.9.a']) {
      const value = text(language, key);
      expect(value, key).toContain(said.days(guaranteeDays));
      expect(value, key).toContain(said.firstPayment);
      expect(value, key).toContain(said.unconditional);
    }
    for (const [key, value] of entries)
      expect(value, key).not.toMatch(
        /configuración estándar|resultado neto|configuração padrão|resultado líquido/i,
      );
  });

  it('limits the 7-day refund to the first payment wherever it is offered', () => {
    const paidAt = Date.UTC(2026, 0, 1);
    const payment = { paidAt, refundedAt: null };
    expect(selfRefundWindow(payment, paidAt + (refundWindowDays - 1) * dayMs).eligible).toBe(true);
    expect(selfRefundWindow(payment, paidAt + refundWindowDays * dayMs).eligible).toBe(false);
    const claims = entries.filter(
      ([key, value]) =>
        value.includes(said.days(refundWindowDays)) &&
        /reembols/i.test(value) &&
        !key.endsWith('.title'),
    );
    expect(claims.length).toBeGreaterThanOrEqual(4); // faq, legal, plans, the Bitcoin promotion
    for (const [key, value] of claims) expect(value, key).toContain(said.firstPayment);
  });

  it('prices in US dollars only and promises no other currency', () => {
    for (const plan of Object.values(plans)) expect(plan.currency).toBe('USD');
    expect(text(language, 'faq.items.8.a')).toContain('USD');
    expect(text(language, 'plans.lead')).toContain('USD');
    // A linked cTrader account may be in reais or euros (decision 097): the prices' currency is
    // not the account's; each mode's is said (the payment page names the linked account's).
    for (const [key, value] of entries) expect(value, key).not.toMatch(said.accountCurrencyIsUsd);
    expect(text(language, 'plans.lead')).toContain(said.builtIn);
    for (const [key, value] of entries)
      expect(value, key).not.toMatch(/en tu moneda|na sua moeda|ARS|BRL|MXN|CLP|COP/);
  });

  it('prints the free month’s code nowhere: it is mailed from /promo/mesgratis', () => {
    for (const [key, value] of entries)
      expect(value.toUpperCase(), key).not.toContain(freeMonthPromotion);
    expect(text(language, 'plans.freeMonth')).toMatch(/correo|e-mail/);
  });
});
