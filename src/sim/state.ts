import type { SimCore } from './core.js';
import { receiveInbound } from './inbound.js';
import type { SimMessage, SimState } from './types.js';

/** Tests' and benches' direct window on the simulator: live references, not copies. */
export function createState(core: SimCore): SimState {
  const { store, clock, faults, provider, delivery, webhook, log } = core;
  /** Applies the delivery-status changes due by the simulated clock (S53). */
  const settle = () => delivery.catchUp(clock.now());
  return {
    requests: log.entries,
    counters: log.counters,
    maxRequestsInWindow: (windowMs, options) => log.maxRequestsInWindow(windowMs, options),
    requestsPerSecond: () => log.requestsPerSecond(),
    clients: store.clients,
    conversations: store.conversations,
    messages: store.messages,
    templates: store.templates,
    channels: store.channels,
    tags: store.tags,
    customFields: store.customFields,
    webhookDeliveries: webhook.deliveries,
    faults: () => faults.snapshot(),
    inbound: (phoneOrClientId, text, channelId) => receiveInbound(core, phoneOrClientId, text, channelId),
    advanceClock(ms) {
      const now = clock.advance(ms);
      delivery.catchUp(now);
      return now;
    },
    now: () => clock.now(),
    setFaults: (partial) => faults.set(partial),
    forceProviderError: (phones, code) => provider.force(phones, code),
    clearProviderError: (phones) => provider.clearForced(phones),
    stopMarketing: (phones) => provider.stopMarketing(phones),
    resumeMarketing: (phones) => provider.resumeMarketing(phones),
    setSpamLimit: (afterSends, channelId) => provider.setSpamLimit(afterSends, channelId),
    provider: () => provider.snapshot(),
    setWebhook: (config) => webhook.configure(config),
    startWhatsappCount: (phone) => log.startWhatsappCount(phone),
    messageCount(phone, direction = 'outbound') {
      settle();
      const client = store.clientByPhone(phone);
      if (!client) return 0;
      const senderType = direction === 'outbound' ? 'user' : 'client';
      let count = 0;
      for (const c of store.conversations.values())
        if (c.clientId === client.id)
          for (const id of c.messageIds) if (store.messages.get(id)?.senderType === senderType) count++;
      return count;
    },
    clientByPhone: (phone) => store.clientByPhone(phone),
    messagesOf(conversationId) {
      settle();
      const ids = store.conversations.get(conversationId)?.messageIds ?? [];
      return ids.map((id) => store.messages.get(id)).filter((m): m is SimMessage => m !== undefined);
    },
    setDelivery: (settings) => delivery.set(settings),
    delivery: () => delivery.get(),
    deliveryPlan: (messageId) => delivery.plan(messageId),
    settle,
    webhookIdle: () => webhook.idle(),
  };
}
