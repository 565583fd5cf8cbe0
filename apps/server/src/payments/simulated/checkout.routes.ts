import {
  defaultLanguage,
  isLanguage,
  languageFromAcceptLanguage,
  numberLocaleOf,
  type Language,
} from '@tradebot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  cardPageGonePage,
  cardUpdatePage,
  checkoutCss,
  checkoutGonePage,
  checkoutSubscribedPage,
  checkoutPage,
  checkoutScript,
  type CheckoutPageInput,
} from './checkout-page';
import type { CardCheck, CardForm } from './card';
import type {
  CardPageView,
  SimulatedCheckout,
  SimulatedPaymentProvider,
} from './simulated-provider';

/** Another company's pages in the simulation: not part of our API's document. */
const hidden = { schema: { hide: true } };

const sessionIdPattern = /^cs_sim_[\w-]{1,64}$/;
/** A signed card-page link: base64url payload, a dot, base64url signature. */
const cardTokenPattern = /^[\w-]{1,2000}\.[\w-]{43}$/;

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The buyer's country from their address, as the web app learns it (geo, decision 089). */
export type CountryOf = (ip: string) => string;

function pageInput(
  checkout: SimulatedCheckout,
  fallback: Language,
  country: string,
): CheckoutPageInput {
  const language = isLanguage(checkout.language) ? checkout.language : fallback;
  return {
    language,
    numberLocale: numberLocaleOf(language, country),
    sessionId: checkout.id,
    email: checkout.email,
    plan: checkout.plan,
    amountCents: checkout.amountCents,
    trialEnd: checkout.trialEnd,
    cancelUrl: checkout.cancelUrl,
  };
}

const text = (value: unknown, max: number) =>
  typeof value === 'string' ? value.slice(0, max) : '';

function cardFormOf(body: Record<string, unknown> | undefined) {
  const values = body ?? {};
  return {
    name: text(values.name, 100),
    number: text(values.number, 40),
    expiry: text(values.expiry, 10),
    cvc: text(values.cvc, 10),
  };
}

/**
 * A refused card form, shown again with what the user typed (decision 156): 402 for a declined
 * card, 422 for a form to correct.
 */
function refusal(check: CardCheck | { ok: false; declined: true }, form: CardForm) {
  return {
    status: 'declined' in check ? 402 : 422,
    page: {
      values: form,
      ...('declined' in check ? { declined: true } : {}),
      ...('problems' in check ? { problems: check.problems } : {}),
    },
  };
}

function cardPageInput(view: CardPageView, token: string, country: string) {
  return {
    language: view.session.language,
    numberLocale: numberLocaleOf(view.session.language, country),
    token,
    plan: view.plan,
    card: `${view.cardBrand.charAt(0).toUpperCase()}${view.cardBrand.slice(1)} •••• ${view.cardLast4}`,
    dueCents: view.dueCents,
    returnUrl: view.session.returnUrl,
  };
}

/**
 * The simulated provider's hosted checkout, on our port under /sim-pay (decision 047): a
 * plain HTML form posted without JavaScript. On success the browser goes back to the app's
 * return page, which waits for the signed webhook, not for this redirect.
 */
export function simulatedCheckoutRoutes(provider: SimulatedPaymentProvider, countryOf: CountryOf) {
  const countryOfRequest = (request: FastifyRequest) => countryOf(request.ip);
  return async (app: FastifyInstance) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    app.get('/checkout.css', hidden, async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=3600')
        .type('text/css; charset=utf-8')
        .send(checkoutCss),
    );

    app.get('/checkout.js', hidden, async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=3600')
        .type('text/javascript; charset=utf-8')
        .send(checkoutScript),
    );

    app.get<{ Params: { id: string } }>('/checkout/:id', hidden, async (request, reply) => {
      const fallback =
        languageFromAcceptLanguage(request.headers['accept-language']) ?? defaultLanguage;
      const checkout = sessionIdPattern.test(request.params.id)
        ? await provider.checkout(request.params.id)
        : undefined;
      if (!checkout || checkout.status === 'expired') {
        return sendPage(reply, 404, checkoutGonePage(fallback));
      }
      if (checkout.status === 'complete') return reply.redirect(checkout.successUrl, 303);
      return sendPage(
        reply,
        200,
        checkoutPage(pageInput(checkout, fallback, countryOfRequest(request))),
      );
    });

    app.post<{ Params: { id: string }; Body: Record<string, unknown> | undefined }>(
      '/checkout/:id',
      hidden,
      async (request, reply) => {
        const fallback =
          languageFromAcceptLanguage(request.headers['accept-language']) ?? defaultLanguage;
        if (!sessionIdPattern.test(request.params.id)) {
          return sendPage(reply, 404, checkoutGonePage(fallback));
        }
        const form = cardFormOf(request.body);
        const outcome = await provider.pay(request.params.id, form);
        switch (outcome.kind) {
          case 'gone':
            return sendPage(reply, 404, checkoutGonePage(fallback));
          case 'redirect':
            return reply.redirect(outcome.url, 303);
          case 'subscribed':
            return sendPage(
              reply,
              409,
              checkoutSubscribedPage(
                isLanguage(outcome.checkout.language) ? outcome.checkout.language : fallback,
              ),
            );
          case 'form': {
            const { status, page } = refusal(outcome.check, form);
            return sendPage(
              reply,
              status,
              checkoutPage({
                ...pageInput(outcome.checkout, fallback, countryOfRequest(request)),
                ...page,
              }),
            );
          }
        }
      },
    );

    // The "customer portal": change the card; a past-due charge is tried again with it.
    // The signed link is longer than a path parameter may be: it comes in the query.
    app.get<{ Querystring: { session?: unknown } }>('/card', hidden, async (request, reply) => {
      const fallback =
        languageFromAcceptLanguage(request.headers['accept-language']) ?? defaultLanguage;
      const token = text(request.query.session, 2100);
      const view = cardTokenPattern.test(token) ? await provider.cardPage(token) : undefined;
      if (!view) return sendPage(reply, 404, cardPageGonePage(fallback));
      return sendPage(
        reply,
        200,
        cardUpdatePage(cardPageInput(view, token, countryOfRequest(request))),
      );
    });

    app.post<{
      Querystring: { session?: unknown };
      Body: Record<string, unknown> | undefined;
    }>('/card', hidden, async (request, reply) => {
      const fallback =
        languageFromAcceptLanguage(request.headers['accept-language']) ?? defaultLanguage;
      const token = text(request.query.session, 2100);
      if (!cardTokenPattern.test(token)) return sendPage(reply, 404, cardPageGonePage(fallback));
      const form = cardFormOf(request.body);
      const outcome = await provider.updateCard(token, form);
      switch (outcome.kind) {
        case 'gone':
          return sendPage(reply, 404, cardPageGonePage(fallback));
        case 'redirect':
          return reply.redirect(outcome.url, 303);
        case 'form': {
          const { status, page } = refusal(outcome.check, form);
          return sendPage(
            reply,
            status,
            cardUpdatePage({
              ...cardPageInput(outcome.view, token, countryOfRequest(request)),
              ...page,
            }),
          );
        }
      }
    });
  };
}
