import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that answers the calls our Stripe adapter makes as Stripe's API does
 * (form-encoded requests, JSON objects, Stripe's error shape), so that the real `stripe` SDK
 * can be tested here without the network. It keeps its objects in memory; `complete` plays
 * the buyer paying on Stripe's hosted page.
 */
export interface RecordedCall {
  method: string;
  path: string;
  params: Record<string, string>;
}

type StripeObject = Record<string, unknown> & { id: string };

const seconds = (ms: number) => Math.floor(ms / 1000);

export class FakeStripe {
  readonly calls: RecordedCall[] = [];
  private readonly objects = new Map<string, StripeObject>();
  private server: http.Server | undefined;
  private counter = 0;

  async start(): Promise<number> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://stripe.test');
        const params = Object.fromEntries(
          new URLSearchParams(
            request.method === 'GET' || request.method === 'DELETE'
              ? url.search
              : Buffer.concat(chunks).toString('utf8'),
          ),
        );
        const call = { method: request.method ?? 'GET', path: url.pathname, params };
        this.calls.push(call);
        const authorized = request.headers.authorization === 'Bearer sk_test_fakefakefake';
        const [status, body] = authorized
          ? this.answer(call)
          : [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key' } }];
        response.writeHead(status, {
          'content-type': 'application/json',
          'request-id': 'req_fake',
        });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private id(prefix: string): string {
    this.counter += 1;
    return `${prefix}_test_${String(this.counter).padStart(6, '0')}`;
  }

  get(id: string): StripeObject {
    const object = this.objects.get(id);
    if (!object) throw new Error(`fake Stripe has no ${id}`);
    return object;
  }

  private missing(id: string): [number, unknown] {
    return [
      404,
      {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such object: '${id}'`,
        },
      },
    ];
  }

  private answer({ method, path, params }: RecordedCall): [number, unknown] {
    const [, , resource, id, subresource] = path.split('/');
    if (resource === 'checkout' && id === 'sessions' && method === 'POST' && !subresource) {
      const session: StripeObject = {
        id: this.id('cs'),
        object: 'checkout.session',
        mode: params.mode,
        status: 'open',
        url: `https://checkout.stripe.test/c/pay/${String(this.counter)}`,
        client_reference_id: params.client_reference_id ?? null,
        customer: params.customer ?? null,
        customer_email: params.customer_email ?? null,
        metadata: { user_id: params['metadata[user_id]'], plan: params['metadata[plan]'] },
        subscription: null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        created: seconds(Date.now()),
        params,
      };
      this.objects.set(session.id, session);
      return [200, session];
    }
    if (resource === 'checkout' && id === 'sessions' && method === 'GET' && subresource) {
      const session = this.objects.get(subresource);
      return session ? [200, session] : this.missing(subresource);
    }
    if (resource === 'subscriptions' && id) {
      const subscription = this.objects.get(id);
      if (!subscription) return this.missing(id);
      if (method === 'POST' && params.cancel_at_period_end !== undefined) {
        subscription.cancel_at_period_end = params.cancel_at_period_end === 'true';
      }
      if (method === 'DELETE') {
        subscription.status = 'canceled';
        subscription.ended_at = seconds(Date.now());
        subscription.canceled_at = seconds(Date.now());
      }
      return [200, subscription];
    }
    if (resource === 'invoices' && id && method === 'GET') {
      const invoice = this.objects.get(id);
      return invoice ? [200, invoice] : this.missing(id);
    }
    if (resource === 'payment_intents' && id && method === 'GET') {
      const intent = this.objects.get(id);
      if (!intent) return this.missing(id);
      const expanded = Object.values(params).includes('latest_charge');
      return [
        200,
        expanded ? { ...intent, latest_charge: this.get(String(intent.latest_charge)) } : intent,
      ];
    }
    if (resource === 'refunds' && method === 'POST') {
      const intent = this.objects.get(params.payment_intent ?? '');
      if (!intent) return this.missing(params.payment_intent ?? '');
      const charge = this.get(String(intent.latest_charge));
      if (charge.refunded) {
        return [
          400,
          {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge ${charge.id} has already been refunded.`,
            },
          },
        ];
      }
      const refund = {
        id: this.id('re'),
        object: 'refund',
        created: seconds(Date.now()),
        charge: charge.id,
      };
      charge.refunded = true;
      charge.refunds = { object: 'list', data: [refund] };
      return [200, refund];
    }
    if (resource === 'billing_portal' && id === 'sessions' && method === 'POST') {
      return [
        200,
        {
          id: this.id('bps'),
          object: 'billing_portal.session',
          customer: params.customer,
          return_url: params.return_url,
          url: `https://billing.stripe.test/p/session/${String(this.counter)}`,
        },
      ];
    }
    return [
      404,
      {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path})`,
        },
      },
    ];
  }

  /**
   * The buyer pays on Stripe's page: a customer, an active subscription with the session's
   * metadata, and its first invoice paid by card. Returns the objects' ids.
   */
  complete(sessionId: string, card = { brand: 'visa', last4: '4242' }, now = Date.now()) {
    const session = this.get(sessionId);
    const params = session.params as Record<string, string>;
    const interval = params['line_items[0][price_data][recurring][interval]'] ?? 'month';
    const amount = Number(params['line_items[0][price_data][unit_amount]']);
    const end = new Date(now);
    if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
    else end.setUTCMonth(end.getUTCMonth() + 1);
    const customerId = typeof session.customer === 'string' ? session.customer : this.id('cus');
    const subscriptionId = this.id('sub');
    const chargeId = this.id('ch');
    const intentId = this.id('pi');
    const invoiceId = this.id('in');
    const metadata = {
      user_id: params['subscription_data[metadata][user_id]'],
      plan: params['subscription_data[metadata][plan]'],
    };
    this.objects.set(subscriptionId, {
      id: subscriptionId,
      object: 'subscription',
      customer: customerId,
      status: 'active',
      metadata,
      start_date: seconds(now),
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      latest_invoice: invoiceId,
      items: {
        object: 'list',
        data: [
          {
            id: this.id('si'),
            object: 'subscription_item',
            current_period_start: seconds(now),
            current_period_end: seconds(end.getTime()),
          },
        ],
      },
    });
    this.objects.set(chargeId, {
      id: chargeId,
      object: 'charge',
      created: seconds(now),
      refunded: false,
      refunds: { object: 'list', data: [] },
      payment_intent: intentId,
      payment_method_details: { type: 'card', card: card },
    });
    this.objects.set(intentId, { id: intentId, object: 'payment_intent', latest_charge: chargeId });
    this.objects.set(invoiceId, {
      id: invoiceId,
      object: 'invoice',
      amount_paid: amount,
      currency: 'usd',
      created: seconds(now),
      period_start: seconds(now),
      period_end: seconds(now),
      status: 'paid',
      status_transitions: { paid_at: seconds(now) },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId, metadata },
      },
      lines: {
        object: 'list',
        data: [{ id: this.id('il'), period: { start: seconds(now), end: seconds(end.getTime()) } }],
      },
      payments: {
        object: 'list',
        data: [
          {
            id: this.id('inpay'),
            object: 'invoice_payment',
            status: 'paid',
            payment: { type: 'payment_intent', payment_intent: intentId },
          },
        ],
      },
    });
    session.status = 'complete';
    session.subscription = subscriptionId;
    session.customer = customerId;
    return { subscriptionId, invoiceId, intentId, chargeId, customerId };
  }

  /**
   * The renewal's charge fails: the subscription is past_due with a new period and an open
   * invoice that Smart Retries will try again at `nextAttemptMs`.
   */
  renewalFails(subscriptionId: string, nextAttemptMs: number) {
    const subscription = this.get(subscriptionId);
    const item = (subscription.items as { data: Record<string, number>[] }).data[0] ?? {};
    const start = item.current_period_end ?? seconds(Date.now());
    const end = new Date(start * 1000);
    end.setUTCMonth(end.getUTCMonth() + 1);
    item.current_period_start = start;
    item.current_period_end = seconds(end.getTime());
    const invoiceId = this.id('in');
    const metadata = subscription.metadata;
    this.objects.set(invoiceId, {
      id: invoiceId,
      object: 'invoice',
      amount_paid: 0,
      amount_due: 2900,
      currency: 'usd',
      created: start,
      period_start: start,
      period_end: start,
      status: 'open',
      next_payment_attempt: seconds(nextAttemptMs),
      status_transitions: { paid_at: null },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId, metadata },
      },
      lines: {
        object: 'list',
        data: [{ id: this.id('il'), period: { start, end: item.current_period_end } }],
      },
      payments: { object: 'list', data: [] },
    });
    subscription.status = 'past_due';
    subscription.latest_invoice = invoiceId;
    return { invoiceId };
  }

  /** The customer changed the card in the portal and Stripe retried: the open invoice is paid. */
  payLatest(subscriptionId: string, card = { brand: 'visa', last4: '4242' }, now = Date.now()) {
    const subscription = this.get(subscriptionId);
    const invoice = this.get(String(subscription.latest_invoice));
    const chargeId = this.id('ch');
    const intentId = this.id('pi');
    this.objects.set(chargeId, {
      id: chargeId,
      object: 'charge',
      created: seconds(now),
      refunded: false,
      refunds: { object: 'list', data: [] },
      payment_intent: intentId,
      payment_method_details: { type: 'card', card },
    });
    this.objects.set(intentId, { id: intentId, object: 'payment_intent', latest_charge: chargeId });
    Object.assign(invoice, {
      status: 'paid',
      amount_paid: invoice.amount_due,
      next_payment_attempt: null,
      status_transitions: { paid_at: seconds(now) },
      payments: {
        object: 'list',
        data: [
          {
            id: this.id('inpay'),
            object: 'invoice_payment',
            status: 'paid',
            payment: { type: 'payment_intent', payment_intent: intentId },
          },
        ],
      },
    });
    subscription.status = 'active';
    return { invoiceId: invoice.id };
  }

  /** Puts an object made elsewhere (another integration on the same Stripe account). */
  put(object: StripeObject): void {
    this.objects.set(object.id, object);
  }

  /** An event as Stripe posts it: a snapshot of the object at the time. */
  event(type: string, objectId: string): string {
    return this.eventAbout(type, structuredClone(this.get(objectId)));
  }

  /** An event about any object, whether this server has it or not. */
  eventAbout(type: string, object: Record<string, unknown>): string {
    return JSON.stringify({
      id: this.id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: seconds(Date.now()),
      livemode: false,
      type,
      data: { object },
    });
  }
}
