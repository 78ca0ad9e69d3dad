import type { ContactStory } from '../../app/index.js';
import type { ContactEvent, ContactState } from '../../checkpoint/index.js';

/** One contact's story for people: the row, the message, each request and its answer, the ids, delivery, reply, and what comes next. */
export function formatStory(s: ContactStory): string {
  const lines = [`${s.phone} in job ${s.job}`];
  if (s.row) {
    lines.push(`row       ${s.row.file} line ${s.row.line}, phone written "${s.row.phoneAsWritten}"`);
    lines.push(`          ${s.row.cells.map((c) => `${c.header}: ${c.value}`).join(' | ')}`);
  } else lines.push('row       not in the contact list any more');
  const m = s.message;
  if (m) {
    if (m.variant !== undefined) lines.push(`variant   ${m.variant}`);
    if (m.template) {
      const vars = Object.entries(m.template.variables).map(([k, v]) => `{{${k}}}=${JSON.stringify(v)}`);
      lines.push(`template  ${m.template.name} (${m.template.language}) ${vars.join(', ')}`);
    }
    if (m.text !== undefined) lines.push(`text      ${JSON.stringify(m.text)}`);
  }
  lines.push(`status    ${s.state ? statusLine(s.state) : 'never sent (pending)'}`);
  if (s.events.length > 0) {
    lines.push('requests and answers');
    for (const e of s.events) lines.push(`  ${e.at}  ${eventLine(e)}`);
  }
  const st = s.state;
  if (st && (st.conversationId !== undefined || st.clientId !== undefined || st.status === 'sent')) {
    lines.push(`ids       conversation ${st.conversationId ?? '–'}, client ${st.clientId ?? '–'}, message ${st.status === 'sent' ? st.messageId : '–'}`);
  }
  if (s.sentAt !== undefined) lines.push(`sent      ${s.sentAt}`);
  if (s.delivery) {
    const d = s.delivery;
    const parts = [d.status, d.deliveredAt && `delivered ${d.deliveredAt}`, d.readAt && `read ${d.readAt}`, d.failureReason && `failed: ${d.failureReason}`].filter(Boolean);
    lines.push(`delivery  ${parts.join(', ')}`);
  } else if (s.sentAt !== undefined) lines.push('delivery  not read back yet (`outreach track`)');
  if (s.sentAt !== undefined) lines.push(`reply     ${s.repliedAt ?? 'none recorded'}`);
  lines.push(`next      ${s.next}`);
  return `${lines.join('\n')}\n`;
}

function statusLine(s: ContactState): string {
  switch (s.status) {
    case 'sent':
      return `sent (${s.action}${s.source === 'reconciled' ? ', found on the platform by reconcile' : ''})`;
    case 'failed':
      return `failed (HTTP ${s.httpStatus}, ${s.retryable ? 'retryable' : 'not retryable'}): ${s.error}`;
    case 'in_doubt':
      return `in doubt: ${s.error}${s.unresolved !== undefined ? `; reconcile: ${s.unresolved}` : ''}`;
    case 'skipped':
      return `skipped: ${s.reason}`;
    case 'deferred':
      return `deferred until ${s.notBefore}: ${s.reason}`;
    case 'pending':
      return s.attempts > 0 ? 'pending (reconcile found no message: safe to send)' : 'pending';
  }
}

const VIA: Record<string, string> = { start: 'start-whatsapp', template: 'wba-send-template', message: 'a message' };

function eventLine(e: ContactEvent): string {
  switch (e.t) {
    case 'attempt':
      return `→ ${VIA[e.via] ?? e.via} (${e.action})${e.conversation_id !== undefined ? ` on conversation ${e.conversation_id}` : ''}`;
    case 'sent':
      return `← sent: conversation ${e.conversation_id}, client ${e.client_id ?? '–'}, message ${e.message_id}`;
    case 'failed':
      return `← failed (HTTP ${e.status}${e.retryable ? ', retryable' : ''}): ${e.error}`;
    case 'in_doubt':
      return `← no answer (in doubt): ${e.error}`;
    case 'skipped':
      return `skipped: ${e.reason}`;
    case 'deferred':
      return `deferred until ${e.not_before}: ${e.reason}`;
    case 'followup':
      return `after-send ${e.step}: ${e.attempt ? 'sending' : e.ok ? 'done' : e.in_doubt ? 'no answer (in doubt)' : `failed${e.error ? `: ${e.error}` : ''}`}`;
    case 'delivery':
      return `track read: ${e.status}${e.failure_reason ? ` ${e.failure_reason}` : ''}`;
    case 'reconciled':
      if (e.result === 'sent') return `reconcile: found message ${e.message_id} in conversation ${e.conversation_id} (made ${e.sent_at})`;
      return e.result === 'not_sent' ? 'reconcile: no message on the platform: pending' : `reconcile: could not tell: ${e.reason}`;
  }
}
