import type { ContactStory } from '../../app/index.js';
import type { ContactEvent, ContactState } from '../../checkpoint/index.js';
import { formatStamp, type Readers } from './time.js';

/** One contact's story for people: the row, the message, each request and its answer, the ids, delivery, reply, and what comes next. */
export function formatStory(s: ContactStory, r: Readers): string {
  const at = (iso: string): string => formatStamp(iso, r);
  const lines = [`${s.phone} in job ${s.job}`];
  if (s.row) {
    lines.push(`row       ${s.row.file} line ${s.row.line}, phone written "${s.row.phoneAsWritten}"`);
    lines.push(`          ${s.row.cells.map((c) => `${c.header}: ${c.value}`).join(' | ')}`);
  } else lines.push('row       not in the contact list any more');
  lines.push(...messageLines(s));
  lines.push(`status    ${s.state ? statusLine(s.state, at) : 'never sent (pending)'}`);
  if (s.events.length > 0) {
    lines.push('requests and answers');
    for (const e of s.events) lines.push(`  ${at(e.at)}  ${eventLine(e, at)}`);
  }
  const st = s.state;
  if (st && (st.conversationId !== undefined || st.clientId !== undefined || st.status === 'sent')) {
    lines.push(`ids       conversation ${st.conversationId ?? '–'}, client ${st.clientId ?? '–'}, message ${st.status === 'sent' ? st.messageId : '–'}`);
  }
  if (s.sentAt !== undefined) lines.push(`sent at   ${at(s.sentAt)}`);
  if (s.delivery) {
    const d = s.delivery;
    const parts = [d.status, d.deliveredAt && `delivered ${at(d.deliveredAt)}`, d.readAt && `read ${at(d.readAt)}`, d.failureReason && `failed: ${d.failureReason}`].filter(Boolean);
    lines.push(`delivery  ${parts.join(', ')}`);
  } else if (s.sentAt !== undefined) lines.push('delivery  not read back yet (`outreach track`)');
  if (s.sentAt !== undefined) lines.push(`reply     ${s.repliedAt !== undefined ? at(s.repliedAt) : 'none recorded'}`);
  if (s.suppressed) lines.push(`suppressed since ${at(s.suppressed.at)}: ${s.suppressed.source}, ${s.suppressed.reason}`);
  lines.push(`next      ${s.next}`);
  return `${lines.join('\n')}\n`;
}

/**
 * What the contact was sent (from the journal), and the list's message when it is not that: the list
 * may have changed since, and a journal written before requests kept their content says nothing.
 */
function messageLines(s: ContactStory): string[] {
  const lines: string[] = [];
  const m = s.message;
  if (m?.variant !== undefined) lines.push(`variant   ${m.variant}`);
  const listed = m ? [...(m.template ? [`template ${templateText(m.template)}`] : []), ...(m.text !== undefined ? [`text ${JSON.stringify(m.text)}`] : [])] : [];
  const r = s.requested;
  if (!r) {
    if (m?.template) lines.push(`template  ${templateText(m.template)}`);
    if (m?.text !== undefined) lines.push(`text      ${JSON.stringify(m.text)}`);
    return lines;
  }
  if (!r.content) {
    for (const l of listed) lines.push(`list now  ${l} (what was sent was not recorded by this journal)`);
    return lines;
  }
  const sent = s.state?.status === 'sent';
  const carried = 'template' in r.content ? `template ${templateText(r.content.template)}` : `text ${JSON.stringify(r.content.text)}`;
  lines.push(`${(sent ? 'sent' : 'requested').padEnd(10)}${carried}`);
  const now = 'template' in r.content ? m?.template && `template ${templateText(m.template)}` : m?.text !== undefined ? `text ${JSON.stringify(m.text)}` : undefined;
  if (now !== undefined && now !== carried) {
    lines.push(`list now  ${now} (the list changed since; ${sent ? 'not what was sent' : 'a new send carries this'})`);
  }
  return lines;
}

function templateText(t: { name: string; language: string; variables: Record<string, string> }): string {
  const vars = Object.entries(t.variables).map(([k, v]) => `{{${k}}}=${JSON.stringify(v)}`);
  return `${t.name} (${t.language}) ${vars.join(', ')}`;
}

function statusLine(s: ContactState, at: (iso: string) => string): string {
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
      return `deferred until ${at(s.notBefore)}: ${s.reason}`;
    case 'pending':
      return s.attempts > 0 ? 'pending (reconcile found no message: safe to send)' : 'pending';
  }
}

const VIA: Record<string, string> = { start: 'start-whatsapp', template: 'wba-send-template', message: 'a message' };

function eventLine(e: ContactEvent, at: (iso: string) => string): string {
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
      return `deferred until ${at(e.not_before)}: ${e.reason}`;
    case 'followup':
      return `after-send ${e.step}: ${e.attempt ? 'sending' : e.ok ? 'done' : e.in_doubt ? 'no answer (in doubt)' : `failed${e.error ? `: ${e.error}` : ''}`}`;
    case 'delivery':
      return `track read: ${e.status}${e.failure_reason ? ` ${e.failure_reason}` : ''}`;
    case 'reconciled':
      if (e.result === 'sent') return `reconcile: found message ${e.message_id} in conversation ${e.conversation_id} (made ${at(e.sent_at)})`;
      return e.result === 'not_sent' ? 'reconcile: no message on the platform: pending' : `reconcile: could not tell: ${e.reason}`;
  }
}
