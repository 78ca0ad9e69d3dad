import { createHmac } from 'node:crypto';
import {
  SIGNATURE_HEADER,
  WEBHOOK_EVENT,
  WEBHOOK_LOG_LIMIT,
  WEBHOOK_TIMEOUT_MS,
} from './assumptions.js';
import { isoOffset } from './clock.js';
import type { SimMessage, WebhookConfig, WebhookDelivery } from './types.js';
import { webhookMessageView } from './views.js';

export type Direction = 'inbound' | 'outbound';

/** The exact raw body and its signature header value (sha256=<hex HMAC-SHA256 of the body with the secret>). */
export function signedEvent(
  message: SimMessage,
  conversationId: number,
  clientId: number,
  direction: Direction,
  nowMs: number,
  secret: string,
): { body: string; signature: string } {
  const body = JSON.stringify({
    event: WEBHOOK_EVENT,
    data: {
      message: webhookMessageView(message),
      conversation_id: String(conversationId),
      client_id: String(clientId),
      direction,
    },
    timestamp: isoOffset(nowMs),
  });
  return { body, signature: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` };
}

/**
 * Emits `chat.message` for every new message: one POST, 10-second timeout (documented; `webhookTimeoutMs`),
 * no retry, redirects not followed (a 3xx is an undelivered attempt, recorded with its status), fire-and-forget
 * (it starts after the API answer is written and never affects it). Every attempt is recorded.
 */
export class WebhookEmitter {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  /** One controller per delivery in flight, aborted by abortAll (no listener on a shared signal per delivery). */
  private readonly controllers = new Set<AbortController>();
  onAttempt: () => void = () => {};

  constructor(
    private config: WebhookConfig | undefined,
    private readonly timeoutMs: number = WEBHOOK_TIMEOUT_MS,
  ) {}

  configure(config: WebhookConfig | undefined): void {
    if (config && (typeof config.url !== 'string' || typeof config.secret !== 'string' || !config.url))
      throw new TypeError('webhook needs a url and a secret');
    this.config = config ? { url: config.url, secret: config.secret } : undefined;
  }

  emit(message: SimMessage, conversationId: number, clientId: number, direction: Direction, nowMs: number): void {
    const config = this.config;
    if (!config || this.closing.signal.aborted) return;
    const { body, signature } = signedEvent(message, conversationId, clientId, direction, nowMs, config.secret);
    const delivery: WebhookDelivery = {
      messageId: message.id,
      direction,
      url: config.url,
      body,
      startedAt: Date.now(),
      pending: true,
    };
    if (this.deliveries.length >= WEBHOOK_LOG_LIMIT) this.deliveries.splice(0, WEBHOOK_LOG_LIMIT / 2);
    this.deliveries.push(delivery);
    this.onAttempt();
    const attempt = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.post(config.url, body, signature, delivery))
      .finally(() => this.inFlight.delete(attempt));
    this.inFlight.add(attempt);
  }

  /** Aborts deliveries in flight (the simulator is closing). */
  abortAll(): void {
    const reason = new Error('simulator closed');
    this.closing.abort(reason);
    for (const controller of this.controllers) controller.abort(reason);
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async post(url: string, body: string, signature: string, delivery: WebhookDelivery): Promise<void> {
    // An own controller and timer, not AbortSignal.any([AbortSignal.timeout(...), ...]): on Node 20 the timeout
    // signal can be garbage-collected inside AbortSignal.any and never fire, leaving a hanging delivery pending.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), this.timeoutMs);
    if (this.closing.signal.aborted) controller.abort(this.closing.signal.reason);
    this.controllers.add(controller);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      delivery.status = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      delivery.error = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
      delivery.pending = false;
      delivery.durationMs = Date.now() - delivery.startedAt;
    }
  }
}
